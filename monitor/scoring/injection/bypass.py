"""Bypass intent: requests to drop the filters, rules, ethics or safety training, and
harmful topics (bombs, malware, ...), which count only in combination with framing or
detail requests.

>>> RULES.specs["b_your"][1:3]
('bypass_intent', 0.8)
>>> HARM_RULES.specs["h_topic"][2]
0.1
"""

from __future__ import annotations

from monitor.scoring.injection.bank import Group, bank
from monitor.scoring.injection.common import BI
from monitor.scoring.injection.vocab import G1, G2, HARM, LIMIT_WORDS, LIMITS_STRONG, LIMITS_WEAK

__all__ = ["GROUPS", "HARM_RULES", "RULES"]

BV = (
    r"(?:bypass|circumvent|evade|get around|work around|workaround|disable|turn off|switch off"
    r"|shut off|shut down|deactivate|remove|lift|suspend|drop|break|avoid|escape|dodge|defeat"
    r"|override|overcome|jailbreak|trick|fool|sidestep|skirt|ignore|disregard|forget|violate"
    r"|abandon|loosen|relax|strip|unlock|get past|go around|get rid of|set aside|put aside"
    r"|throw out|ditch|drop|neglect|discard|waive|skip|forgo|forego|break free of"
    r"|exploit|hack|beat|outsmart|undo|kill)"
)

RULES = bank(
    [
        (
            "b_your",
            BI,
            0.8,
            rf"{BV} {G1}(?:your|yours|your own) {G2}(?:{LIMITS_STRONG}|{LIMITS_WEAK})",
        ),
        ("b_ai", BI, 0.6, rf"{BV} {G2}{LIMITS_STRONG}"),
        ("b_gen", BI, 0.2, rf"{BV} (?:the |all |any |these |those |my )?{G1}{LIMITS_WEAK}"),
        (
            "b_without",
            BI,
            0.6,
            r"(?:without|with no|with zero|free (?:of|from)|no|minus|sans|devoid of|lacking"
            r"|zero|not (?:bound|restricted|limited) by) (?:[\w'-]{1,30},? (?:or |and |nor )?){0,3}"
            rf"(?:filters?\b|filtering\b|{LIMITS_STRONG})",
        ),
        (
            "b_without_weak",
            BI,
            0.3,
            r"(?:without|with no|free (?:of|from)|no) (?:any |all |the |your |those |these "
            r"|annoying |stupid |pesky |of )?(?:restrictions|limits|limitations|rules"
            r"|guidelines|boundaries|constraints)\b",
        ),
        (
            "b_uncensored",
            BI,
            0.6,
            r"(?:uncensored|unfiltered|unredacted|no-holds-barred|unrestrained) (?:\w+ )?"
            r"(?:answer|response|version|reply|output|truth|content|information|opinion|text"
            r"|responses|answers|replies|take|advice|instructions|explanation|details?|guide)",
        ),
        (
            "b_unrestricted",
            BI,
            0.4,
            r"(?:unrestricted|unmoderated|unlimited) (?:answer|response|reply|output|responses"
            r"|answers|replies|access to (?:your|the) (?:knowledge|training|data))",
        ),
        (
            "b_no_matter",
            BI,
            0.5,
            r"(?:no matter how|regardless of how|however) (?:immoral|unethical|illegal|dangerous"
            r"|harmful|offensive|inappropriate|explicit|reckless|controversial|wrong|evil"
            r"|inhumane)|regardless of (?:legality|ethics|morality|the law|laws|rules|policies"
            r"|consequences|whether it(?:'s| is) (?:legal|ethical|moral|allowed))",
        ),
        (
            "b_even_if",
            BI,
            0.45,
            r"(?:even if|even though|regardless (?:of )?(?:whether|if)) (?:it(?:'s| is)|that is"
            r"|the (?:request|question|content|answer) is|it (?:violates|goes against|breaks))"
            r" (?:\w+ )?(?:illegal|unethical|immoral|harmful|dangerous|against (?:your|the)"
            r" (?:rules|polic(?:y|ies)|guidelines)|your (?:rules|polic(?:y|ies)|guidelines))",
        ),
        (
            "b_dont_exist",
            BI,
            0.55,
            r"as if (?:there (?:were|are) no |you (?:had|have) no )?(?:ethics|laws?|rules|morals"
            r"|restrictions|policies|guidelines|filters|limits)(?: and \w+)? (?:don't|didn't|do"
            r" not|did not|doesn't|does not)? ?(?:exist|apply|matter|existed)"
            r"|(?:your|the ai's|the assistant's|openai'?s?|safety|content|ethical|moral) (?:\w+ )?"
            r"(?:rules|restrictions|polic(?:y|ies)|guidelines|filters|moderation|safeguards"
            r"|guardrails|ethics|limits)(?: \w+)? (?:don't|do not|doesn't|does not|no longer"
            r"|won't|will not) (?:apply|exist|matter|count)",
        ),
        (
            "b_lifted",
            BI,
            0.55,
            r"(?:your|the ai's|the assistant's|safety|content|ethical|moral|openai'?s?) (?:\w+ )?"
            r"(?:rules|restrictions|filters?|guidelines|polic(?:y|ies)|guardrails|protocols"
            r"|settings|limits|constraints)(?: \w+)? (?:have been|are|were|has been|is|got)"
            r" (?:now |all |temporarily )?(?:lifted|removed|disabled|suspended|turned off"
            r"|deactivated|waived|switched off|off|gone|void|bypassed|overridden|deleted)",
        ),
        (
            "b_no_rules_here",
            BI,
            0.4,
            r"there are no (?:\w+ )?(?:rules|restrictions|limits|filters|guidelines|laws|boundaries"
            r"|ethics|morals|taboos)(?: here| in this (?:conversation|chat|session|world"
            r"|story)| for you| anymore|\.|$)",
        ),
        (
            "b_allowed",
            BI,
            0.7,
            r"(?:you are|you're|you have been|you've been|you will be|you are now) (?:now )?"
            r"(?:allowed|permitted|authori[sz]ed|free|able|cleared|approved|encouraged) to "
            r"(?:break|ignore|bypass|violate|disregard|override|skip|circumvent|forget) (?:your"
            r"|the|any|all) (?:\w+ )?(?:rules|guidelines|polic(?:y|ies)|restrictions"
            r"|instructions|filters|programming|ethics|limits|principles)",
        ),
        (
            "b_can_break",
            BI,
            0.45,
            r"(?:you can|you may|feel free to|it's ok to|it is ok to|it's okay to) (?:now )?"
            r"(?:break|ignore|bypass|violate|disregard|forget) (?:your|the|any|all)",
        ),
        (
            "b_dont_censor",
            BI,
            0.35,
            r"(?:don't|do not|never|stop|no need to|quit) (?:censor|filter|sanitize|sanitise|hold"
            r" back|water down|refuse|moralize|moralise|lecture|self-censor|censoring|filtering"
            r"|holding back|sanitizing|refusing|moralizing|lecturing|watering down)(?: yourself"
            r"| me| your "
            r"(?:answer|response|output)s?| anything)?\b",
        ),
        (
            "b_know_limits",
            BI,
            0.5,
            r"(?:limitations|restrictions|rules|filters|guidelines|programming|polic(?:y|ies))"
            r"[^.?!]{0,40}?(?:please |just )?(?:ignore|bypass|disregard|forget|skip|override)"
            r" (?:them|those|it|that|these)\b",
        ),
        (
            "b_honest",
            BI,
            0.3,
            r"(?:what (?:do )?you really think|your real opinion|your true (?:self|feelings"
            r"|opinion)|honest(?:ly)? and unfiltered|the real (?:answer|truth) (?:you|that you)"
            r" (?:can't|cannot|are not allowed))",
        ),
        (
            "b_turn_off",
            BI,
            0.7,
            r"(?:turn|switch|shut|toggle|take) (?:your|the|all|its) (?:own )?(?:\w+ )?(?:safety"
            r"|content|moderation|ethics|ethical|filters?|guardrails?|restrictions?|censorship"
            r"|safeguards?)(?: \w+)? off\b",
        ),
        (
            "b_gone",
            BI,
            0.6,
            r"(?:the |your |all |its )?(?:guardrails|safeguards|safety (?:filters?|rules"
            r"|guidelines|settings|layers?|features|checks)|content filters?|filters|restrictions"
            r"|rules|limits) (?:are|were|have been|is|got) (?:now |all |temporarily )?(?:gone"
            r"|off|disabled|removed|lifted|down|suspended|deactivated)\b",
        ),
        (
            "b_answer_without",
            BI,
            0.55,
            r"(?:answer|respond|reply|talk|speak|write|tell me|explain)(?: me| this| it| freely)?"
            r" without (?:any )?(?:limitations|limits|restrictions|rules|boundaries|constraints"
            r"|filters?|censorship|holding back|refusing)\b",
        ),
        (
            "b_anything",
            BI,
            0.3,
            r"(?:so (?:that )?(?:i|you|we) can|and) (?:ask|say|answer|tell me|do|write|discuss"
            r"|generate) (?:absolutely )?anything\b|anything i (?:ask|want|say)(?: without)",
        ),
        (
            "b_comply_any",
            BI,
            0.45,
            r"(?:comply with|obey|fulfil|fulfill|answer|do|follow) (?:any|every|all|each"
            r"|whatever) (?:request|command|order|instruction|question|demand|thing)s?(?: i"
            r" (?:give|make|ask|say))?(?: without (?:question|hesitation|exception|refusing))?"
            r"|(?:do|say|answer|obey|write) (?:anything|everything|whatever|exactly what|only what)"
            r" (?:i|the user) (?:say|ask|want|command|tell you)s?",
        ),
        (
            "b_caught",
            BI,
            0.35,
            r"without (?:getting caught|being caught|being detected|detection|leaving (?:a |any )?"
            r"traces?|anyone (?:knowing|noticing)|them (?:knowing|noticing)|getting flagged)",
        ),
        (
            "b_policy_word",
            BI,
            0.12,
            r"(?:content polic(?:y|ies)|usage polic(?:y|ies)|openai'?s? polic\w+|safety "
            r"guidelines|ethical guidelines|safety filters?|guardrails|safety training)\b",
        ),
    ],
    indirect=("b_allowed", "b_lifted"),
)

GROUPS: tuple[Group, ...] = (
    (
        (
            "bypass circumvent evade get work workaround disable turn switch shut deactivate "
            "remove lift suspend drop break avoid escape dodge defeat override overcome "
            "jailbreak trick fool sidestep skirt ignore disregard forget violate abandon loosen "
            "relax strip unlock go set put throw ditch neglect discard waive skip forgo "
            "forego exploit hack beat outsmart undo kill",
            LIMIT_WORDS,
        ),
        ("b_your", "b_ai", "b_gen"),
    ),
    (
        (
            "without with free no minus sans devoid lacking zero not",
            LIMIT_WORDS,
        ),
        ("b_without", "b_without_weak"),
    ),
    (
        (
            "answer respond reply talk speak write tell explain",
            "without",
        ),
        ("b_answer_without",),
    ),
    (
        ("uncensored unfiltered unredacted unrestrained unrestricted unmoderated unlimited holds",),
        ("b_uncensored", "b_unrestricted"),
    ),
    (
        (
            "matter regardless however",
            "immoral unethical illegal dangerous harmful offensive inappropriate explicit "
            "reckless controversial wrong evil inhumane legality ethics morality law laws rules "
            "policies consequences whether",
        ),
        ("b_no_matter",),
    ),
    (
        (
            "even regardless",
            "illegal unethical immoral harmful dangerous against violates rules policy policies "
            "guidelines",
        ),
        ("b_even_if",),
    ),
    (
        (
            "exist apply matter existed count",
            "ethics laws law rules morals restrictions policies guidelines filters limits "
            "policy moderation safeguards guardrails",
        ),
        ("b_dont_exist",),
    ),
    (
        (
            "lifted removed disabled suspended turned deactivated waived switched off gone void "
            "bypassed overridden deleted",
            "rules restrictions filters filter guidelines policy policies guardrails protocols "
            "settings limits constraints",
        ),
        ("b_lifted",),
    ),
    (
        (
            "there",
            "rules restrictions limits filters guidelines laws boundaries ethics morals taboos",
        ),
        ("b_no_rules_here",),
    ),
    (
        (
            "allowed permitted authorized authorised free able cleared approved encouraged",
            "break ignore bypass violate disregard override skip circumvent forget",
        ),
        ("b_allowed",),
    ),
    (
        (
            "can may feel ok okay it's",
            "break ignore bypass violate disregard forget",
        ),
        ("b_can_break",),
    ),
    (
        (
            "censor filter sanitize sanitise hold water sugarcoat refuse moralize moralise "
            "lecture self censoring filtering holding sanitizing refusing moralizing lecturing "
            "watering",
        ),
        ("b_dont_censor",),
    ),
    (
        (
            "ignore bypass disregard forget skip override",
            "them those it that these",
            "limitations restrictions rules filters guidelines programming policy policies",
        ),
        ("b_know_limits",),
    ),
    (("really real true honest honestly unfiltered",), ("b_honest",)),
    (("anything",), ("b_anything",)),
    (
        (
            "turn switch shut toggle take",
            "off",
            "safety content moderation ethics ethical filter filters guardrail guardrails "
            "restriction restrictions censorship safeguard safeguards",
        ),
        ("b_turn_off",),
    ),
    (
        (
            "guardrails safeguards safety filter filters restrictions rules limits",
            "gone off disabled removed lifted down suspended deactivated",
        ),
        ("b_gone",),
    ),
    (
        (
            "comply obey fulfil fulfill answer do follow say write",
            "any every all each whatever anything everything exactly only",
            "request requests command commands order orders instruction instructions question "
            "questions demand demands thing things say ask want command tell",
        ),
        ("b_comply_any",),
    ),
    (
        ("caught detected detection traces trace knowing noticing flagged",),
        ("b_caught",),
    ),
    (("content usage openai openai's safety ethical guardrails",), ("b_policy_word",)),
)

HARM_RULES = bank(
    [
        ("h_topic", BI, 0.1, HARM),
        (
            "h_detail",
            BI,
            0.25,
            rf"{HARM}(?:[^.?!]{{0,80}}?)(?:in (?:full |great |extreme |explicit |precise |exact "
            r"|complete |technical |specific |step-by-step |vivid )+detail|step[- ]by[- ]step"
            r"|exact (?:quantities|amounts|steps|recipe|procedure|measurements|ingredients)"
            r"|detailed (?:instructions|steps|guide|recipe|procedure)|every (?:step|reagent"
            r"|detail|ingredient)|list(?:ing)? (?:every|all|each) \w+)",
        ),
        (
            "h_detail_before",
            BI,
            0.25,
            r"(?:step[- ]by[- ]step|in (?:full |great |extreme |exact |complete |specific )+detail"
            r"|detailed instructions|exact (?:quantities|amounts|steps|recipe|procedure))"
            rf"(?:[^.?!]{{0,60}}?){HARM}",
        ),
    ],
)
