"""Prompt extraction: requests for the system prompt, the hidden instructions or whatever
came before the user's message ("repeat the words above", "what were you told?").

>>> RULES.specs["p_what"][1:3]
('prompt_extraction', 0.8)
"""

from __future__ import annotations

from monitor.scoring.injection.bank import Group, bank
from monitor.scoring.injection.common import PE
from monitor.scoring.injection.vocab import G1, G2, G3, G4, PROMPTISH, PV_WORDS

__all__ = ["GROUPS", "RULES"]

PV = (
    r"(?:reveal|show|print|display|output|repeat|tell|give|share|leak|dump|expose|return|write"
    r"(?: out| down)?|list|spell(?: out)?|echo|recite|reproduce|copy|paste|send|provide|disclose"
    r"|quote|translate|summari[sz]e|encode|read(?: back| out)?|type(?: out)?|state|restate"
    r"|render|retrieve|fetch|extract|post|divulge|include|put|explain|describe|detail"
    r"|enumerate|convert|format|emit|generate|produce|transcribe|export|forward)"
)
SYS_OBJ = (
    r"(?:system[ -]?prompt|system message|system instructions?|system directives?|pre-?prompt"
    r"|meta[ -]?prompt|developer (?:message|prompt|instructions)|hidden (?:prompt|instructions"
    r"|rules|directives|guidelines|system prompt|message)|secret (?:prompt|instructions|rules"
    r"|directives|guidelines)|internal (?:prompt|instructions|directives|guidelines|rules)"
    r"|confidential (?:prompt|instructions)|initial prompt|original prompt|base prompt"
    r"|initiali[sz]ation (?:text|prompt|message|instructions)|preamble|boot prompt"
    r"|configuration prompt|setup (?:instructions|prompt)|priming (?:text|prompt)"
    r"|starting prompt|opening prompt|core (?:prompt|instructions|directives)|master prompt"
    r"|instruction set|system context)\b"
)
SOFT_OBJ = (
    r"(?:(?:initial|original|first|full|complete|entire|exact|underlying|default|starting"
    r"|given|actual|real) (?:instructions|directives|rules|guidelines|prompt|configuration"
    r"|setup))\b"
)
YOUR_OBJ = (
    r"(?:system[ -]?prompt|prompt|pre-?prompt|instructions?|directives?|programming|system "
    r"message|initial (?:prompt|instructions|rules|message|setup|configuration)|(?:original"
    r"|hidden|secret|internal|confidential|full|complete|exact|entire|actual) (?:prompt"
    r"|instructions|rules|directives|guidelines|system prompt)|context window"
    r"|training instructions|guardrails)\b(?! (?:for|on|about|regarding|to|how|when|if)\b)"
)
YOUR_OBJ_WEAK = (
    r"(?:configuration message|config message|setup message|initial message|configuration"
    r"|config|guidelines|rules|constraints|restrictions|directions|orders"
    r"|briefing|setup|source code|conversation history|chat history|memory|context)\b"
    r"(?! (?:for|on|about|regarding|to|how|when|if)\b)"
)

RULES = bank(
    [
        (
            "p_your",
            PE,
            0.8,
            rf"{PV} {G4}(?:me |us )?(?:all )?(?:of )?(?:your|yours|ur) {G1}{YOUR_OBJ}",
        ),
        (
            "p_your_weak",
            PE,
            0.4,
            rf"{PV} {G2}(?:me |us )?(?:all )?(?:of )?(?:your|yours) {YOUR_OBJ_WEAK}",
        ),
        ("p_sys", PE, 0.7, rf"{PV} {G3}(?:the |this |that |its |an? |all )?{G1}{SYS_OBJ}"),
        ("p_soft", PE, 0.45, rf"{PV} {G2}(?:me |us )?(?:the |its |all )?{SOFT_OBJ}"),
        (
            "p_what",
            PE,
            0.8,
            r"what(?:'s| is| are| were| was| exactly is| exactly are)? (?:exactly |actually |in )?"
            r"(?:your|the assistant's|the bot's|the ai's) (?:current |exact |full |actual "
            r"|original |initial |hidden |secret |complete |entire |first (?:line|sentence|word"
            r"|paragraph|instruction) (?:of|in) (?:your|the) )?(?:system prompt|system message"
            r"|prompt|instructions|directives|programming|pre-?prompt|initial prompt"
            r"|initial instructions|hidden \w+|secret \w+|internal (?:rules|instructions"
            r"|guidelines))\b(?! (?:for|on|about|regarding|to|how|when|if)\b)",
        ),
        (
            "p_what_the",
            PE,
            0.55,
            r"what(?:'s| is| are| were| was)? (?:in |written in |inside )?(?:the|this) "
            r"(?:system prompt|system message|hidden prompt|hidden instructions|pre-?prompt"
            r"|initial prompt|developer message|secret instructions)\b",
        ),
        (
            "p_above",
            PE,
            0.8,
            r"(?:repeat|print|output|copy|echo|show|reproduce|write|return|display|recite|paste"
            r"|give me|tell me|list|dump|quote|rewrite|spell|type|transcribe|reprint|restate"
            r"|read)(?: back| out| again| down)? (?:me )?(?:all |the |every(?:thing)? |each "
            r"|everything |any )?(?:of )?(?:the )?(?:exact |previous |prior |preceding |hidden "
            r"|initial |original |first |full |entire |complete |above )?(?:words?|text|lines?"
            r"|sentences?|content|messages?|instructions|everything|all|tokens|characters"
            r"|prompt|conversation|paragraphs?|stuff) ?(?:written |that (?:is|was|were|are|comes"
            r"|came|appears?|appeared) |you (?:see|saw|have|received|got|were given) |which "
            r"(?:is|was|were) |given )?(?:above|before (?:this|my|the|that)|prior to (?:this|my)"
            r"|preceding (?:this|my)|up to (?:this|here|now)|so far|until now|at the (?:top|very"
            r" top|beginning|start|very beginning) of (?:this|the|our|your) (?:conversation|chat"
            r"|prompt|context|session|message|document|input))",
        ),
        (
            "p_start",
            PE,
            0.75,
            r"(?:starting|beginning|start|begin) (?:with|from|at) (?:the )?(?:words? |phrase "
            r"|sentence |line |text )?['\"`]?(?:you are|you're|your instructions|i am|system"
            r"|instructions|the first|the very first|the beginning|the top|the initial)",
        ),
        (
            "p_told",
            PE,
            0.7,
            r"what (?:were|have|had|did|are) you (?:been |get |got |being )?(?:told|instructed"
            r"|programmed|asked|configured|prompted|trained|initiali[sz]ed|briefed|ordered)"
            r"(?: to(?! say about)| before| at| by| initially| earlier| originally| in (?:your"
            r"|the) (?:system|prompt|instructions)| previously| with|\?|$| not to)",
        ),
        (
            "p_how_configured",
            PE,
            0.4,
            r"how (?:were|are|have) you (?:been )?(?:configured|programmed|prompted|instructed"
            r"|initiali[sz]ed|set up|briefed)",
        ),
        (
            "p_rules_you",
            PE,
            0.7,
            r"(?:list|tell me|show me|what are|give me|print|output|write|reveal) (?:all |every "
            r"|each )?(?:of )?(?:the )?(?:secret |hidden |exact |internal )?(?:rules|instructions"
            r"|guidelines|restrictions|constraints|directives|policies)(?: that)? (?:you (?:were"
            r"|have been|are) (?:given|told|programmed|following|bound by|instructed)|you (?:must"
            r"|have to|need to|were told to) (?:follow|obey)|given to you|you received|you got"
            r"|your (?:developers?|creators?|operators?|makers?) (?:gave|wrote|set|gave you))",
        ),
        (
            "p_received",
            PE,
            0.45,
            r"(?:instructions|prompt|rules|guidelines|message|text|directives|preamble"
            r"|configuration|setup) (?:you (?:were|have been) (?:given|provided|fed|loaded|primed"
            r"|seeded|configured|initiali[sz]ed|started|booted)(?: with)?|you (?:received|got"
            r"|run on|run under|operate under|operate on)"
            r"|given to you|that (?:was|were) given to you)",
        ),
        (
            "p_context",
            PE,
            0.45,
            r"(?:dump|print|show|reveal|output|list|display|export) (?:me )?(?:your |the )?"
            r"(?:entire |full |whole |complete )?(?:context window|context|memory|conversation "
            r"history|chat history|hidden context)\b",
        ),
        (
            "p_verbatim",
            PE,
            0.15,
            r"(?:verbatim|word for word|word-for-word|letter by letter|character by character"
            r"|exactly as (?:written|given|you received|it was|it is))",
        ),
        ("p_sysword", PE, 0.3, SYS_OBJ),
        (
            "p_first_seen",
            PE,
            0.6,
            r"(?:first|very first|opening|initial|earliest) (?:line|sentence|words?|message"
            r"|paragraph|text)s?(?: of (?:text|the text|the conversation))? (?:that )?(?:you (?:can"
            r" )?(?:see|saw|received|got|were given)|in (?:this|our|the|your) (?:conversation|chat"
            r"|context(?: window)?|session|prompt))",
        ),
        (
            "p_govern",
            PE,
            0.6,
            r"(?:directives|rules|instructions|guidelines|policies|prompts?) (?:that )?(?:govern"
            r"|control|shape|determine|guide|define|dictate|constrain) (?:your|the assistant's)"
            r" (?:answers|responses|behaviou?r|replies|output|actions)",
        ),
        (
            "p_repeat_told",
            PE,
            0.7,
            r"(?:repeat|tell me|print|list|show me|output|write(?: down| out)?|recite|share)"
            r" (?:back )?(?:everything|all|what|whatever) (?:that )?you (?:were|have been|got)"
            r" (?:told|instructed|given|taught|programmed)",
        ),
        (
            "p_tells_you",
            PE,
            0.6,
            r"(?:prompt|instructions|rules|text|message|guidelines|directives) (?:that )?(?:tells?"
            r"|told|instructs?|guides?|governs?|describes?|defines?) you (?:how|what|to)\b",
        ),
        (
            "p_you_follow",
            PE,
            0.5,
            r"(?:rules|guidelines|instructions|directives|policies|prompt|constraints) (?:that )?"
            r"you (?:follow|obey|operate under|run on|run under|work under|adhere to|abide by"
            r"|are following|were built with|run with|have to follow|must follow)",
        ),
        (
            "p_written_to_you",
            PE,
            0.6,
            r"(?:everything|all|what|whatever|anything) (?:that )?(?:was|were|has been|had been)"
            r" (?:written|said|sent|given|shown|typed) to you",
        ),
        (
            "p_your_sys",
            PE,
            0.5,
            r"your (?:own )?(?:system[ -]?prompt|system message|pre-?prompt|hidden (?:instructions"
            r"|prompt|rules)|secret (?:instructions|prompt|rules)|initial (?:instructions|prompt)"
            r"|original (?:instructions|prompt)|context window|developer (?:message"
            r"|instructions))\b",
        ),
        (
            "p_above_bare",
            PE,
            0.6,
            r"(?:repeat|print|output|copy|echo|reproduce|recite|dump|reprint|rewrite) (?:back |out "
            r"|again )?(?:all |everything |the )?(?:above|preceding)(?! (?:steps?|example|for)\b)"
            r"(?:[ ,.;:!]|$)",
        ),
        (
            "p_what_in",
            PE,
            0.6,
            r"what(?:'s| is| was) (?:written )?in (?:your|the) (?:context window|system prompt"
            r"|prompt|instructions|memory|hidden \w+|initial \w+|system message)\b",
        ),
        (
            "p_given",
            PE,
            0.7,
            r"(?:what|which) (?:\w+ )?(?:rules|instructions|guidelines|directives|prompt"
            r"|restrictions|constraints|orders)(?: [\w'-]{1,30}){0,4} (?:(?:were|have|had) you"
            r" (?:been )?(?:given|told|programmed|provided|taught)|did (?:[\w'-]{1,30} ){1,4}"
            r"(?:give|provide|tell|teach) you|(?:are|were) you (?:following|given|bound by))",
        ),
        (
            "p_gave",
            PE,
            0.6,
            r"(?:prompt|instructions|rules|guidelines|directives)(?: that)? (?:i|they|we|the "
            r"developers?|your developers?|openai|the company|the operator|your operator|your "
            r"creators?|someone) (?:gave|wrote|provided|fed|set|configured|wrote for)(?: for| to)?"
            r" you",
        ),
        (
            "p_wording",
            PE,
            0.55,
            r"(?:exact |full |complete |entire |original )?(?:wording|text|contents?|transcript)"
            r" of (?:the |your )(?:prompt|instructions|system prompt|system message|initial \w+"
            r"|hidden \w+|rules you)|prompt you are (?:running|operating|working) (?:with|under"
            r"|on)",
        ),
        (
            "p_what_above",
            PE,
            0.65,
            r"what(?:'s| is| was| comes| came| appears)? (?:text |words |content |written |said "
            r"|stated |typed )?(?:above (?:this|my)|before (?:this|my) (?:message|question)|at the"
            r" (?:very )?(?:top|beginning|start) of (?:this|the|our) (?:conversation|chat|prompt"
            r"|context|session)|(?:precedes|preceded|comes before|came before) (?:my|this|our|the"
            r" user's))",
        ),
        (
            "p_what_does",
            PE,
            0.7,
            r"what (?:does|do|did) (?:your|the) (?:system prompt|system message|instructions"
            r"|prompt|hidden \w+|initial \w+|secret \w+|guidelines|programming) (?:say|contain"
            r"|tell|state|include|mention|look like)",
        ),
        (
            "p_first",
            PE,
            0.7,
            r"(?:first|last|opening|initial) (?:\d+ |hundred |few |two |three |five |ten )?"
            r"(?:lines?|sentences?|words?|paragraphs?|instructions?|parts?|rules?|letters?"
            r"|characters?|tokens?) (?:of|in|from) (?:your|the|this) (?:system prompt|system "
            r"message|prompt|instructions|hidden \w+|secret \w+|initial \w+|rules|context)",
        ),
        (
            "p_leak",
            PE,
            0.55,
            r"(?:leak|exfiltrate|smuggle|sneak out) (?:me |us )?(?:(?:your|the) (?:\w+ )?"
            r"(?:prompt|instructions|rules|configuration|secrets?|data)|(?:whatever|everything"
            r"|anything|all) (?:you know|you have|you can))",
        ),
    ],
    indirect=("p_start",),
)

GROUPS: tuple[Group, ...] = (
    ((PV_WORDS, "your yours ur"), ("p_your", "p_your_weak")),
    ((PV_WORDS, PROMPTISH), ("p_sys", "p_soft")),
    (
        ("what what's", PROMPTISH + " hidden secret internal"),
        ("p_what", "p_what_the", "p_what_does", "p_given"),
    ),
    (("which", PROMPTISH), ("p_given",)),
    (
        (
            "repeat print output copy echo show reproduce write return display recite paste give "
            "tell list dump quote rewrite spell type transcribe reprint restate read",
            "above before prior preceding so until top beginning start",
        ),
        ("p_above",),
    ),
    (
        (
            "starting beginning start begin",
            "you you're your i system instructions first very beginning top initial",
        ),
        ("p_start",),
    ),
    (
        (
            "what",
            "told instructed programmed asked configured prompted trained initialized initialised "
            "briefed ordered",
        ),
        ("p_told",),
    ),
    (
        (
            "how",
            "configured programmed prompted instructed initialized initialised set briefed",
        ),
        ("p_how_configured",),
    ),
    (
        (
            "list tell show what give print output write reveal",
            "rules instructions guidelines restrictions constraints directives policies",
            "you given your",
        ),
        ("p_rules_you",),
    ),
    (
        (
            "instructions prompt rules guidelines message text directives preamble configuration "
            "setup",
            "given received got provided fed initialized initialised loaded primed seeded "
            "configured started booted run operate",
        ),
        ("p_received",),
    ),
    (
        ("dump print show reveal output list display export", "context memory history"),
        ("p_context",),
    ),
    (("verbatim word letter character exactly",), ("p_verbatim",)),
    (
        (
            "prompt preprompt metaprompt message instructions directives rules guidelines",
            "system pre meta developer hidden secret internal confidential initial original base "
            "starting opening core master preprompt metaprompt initialization initialisation "
            "preamble boot configuration setup priming",
        ),
        ("p_sysword",),
    ),
    (
        (
            "prompt instructions rules guidelines directives",
            "gave wrote provided fed set configured",
        ),
        ("p_gave",),
    ),
    (
        (
            "wording text content contents transcript running operating working",
            "prompt instructions",
        ),
        ("p_wording",),
    ),
    (
        ("what what's", "above before top beginning start precedes preceded"),
        ("p_what_above",),
    ),
    (
        ("first last opening initial", "prompt message instructions rules context"),
        ("p_first",),
    ),
    (("leak exfiltrate smuggle sneak",), ("p_leak",)),
    (
        (
            "prompt instructions rules text message guidelines directives",
            "tells tell told instructs instruct guides guide governs govern describes defines",
        ),
        ("p_tells_you",),
    ),
    (
        (
            "rules guidelines instructions directives policies prompt constraints",
            "follow obey operate run work adhere abide following built",
        ),
        ("p_you_follow",),
    ),
    (("written said sent given shown typed", "you", "was were been"), ("p_written_to_you",)),
    (
        (
            "first opening initial earliest",
            "see saw received got given conversation chat context session prompt",
        ),
        ("p_first_seen",),
    ),
    (
        (
            "govern control shape determine guide define dictate constrain",
            "your assistant's",
        ),
        ("p_govern",),
    ),
    (
        (
            "repeat tell print list show output write recite share",
            "told instructed given taught programmed",
        ),
        ("p_repeat_told",),
    ),
    (
        (
            "your",
            "prompt preprompt message hidden secret initial original window developer",
        ),
        ("p_your_sys",),
    ),
    (
        (
            "repeat print output copy echo reproduce recite dump reprint rewrite",
            "above preceding",
        ),
        ("p_above_bare",),
    ),
    (("what what's", "in", PROMPTISH + " window memory hidden initial"), ("p_what_in",)),
)
