"""Role override: "you are no longer an assistant", "act as an unrestricted AI", "you are
now a hacker", assigned roles with elevated access.

>>> RULES.specs["r_nolonger"][2]
0.7
"""

from __future__ import annotations

from monitor.scoring.injection.bank import Group, bank
from monitor.scoring.injection.common import RO
from monitor.scoring.injection.vocab import AI

__all__ = ["GROUPS", "RULES"]

RULES = bank(
    [
        (
            "r_nolonger",
            RO,
            0.7,
            r"(?:you are|you're|you will be|you'll be|you have become) no longer (?:an? |the |my "
            rf"|our |just )?(?:\w+ )?(?:{AI}|helper|support|bound|restricted|limited|required"
            r"|obligated|subject|governed|under|confined|tied)\b",
        ),
        ("r_nolonger_bare", RO, 0.45, r"(?:you are|you're) no longer\b"),
        (
            "r_not_anymore",
            RO,
            0.6,
            rf"(?:you are|you're) not (?:an? |the )?(?:\w+ )?{AI} (?:anymore|any more|now"
            r"|today|right now)",
        ),
        (
            "r_bad_role",
            RO,
            0.6,
            r"(?:you are|you're|you will be|you'll be|you shall be|you have become|you've become"
            r"|you become|you must be|be|become|turn into|play|act as|roleplay as|role-play as"
            r"|pretend to be|impersonate) (?:now )?(?:an? |the |my )?(?:[\w-]+ )?(?:hacker|criminal"
            r"|pirate|insider|accomplice|terrorist|scammer|thief|villain|spy|attacker|saboteur"
            r"|mercenary|outlaw|drug dealer|con artist|hitman|assassin|extremist|demon|devil"
            r"|traitor|fraudster|blackhat|black hat|cybercriminal|smuggler|arms dealer)s?\b",
        ),
        (
            "r_now",
            RO,
            0.45,
            r"(?:you are|you're|youre) now (?:an?|the|my|called|named|known as|free|in|operating"
            r"|going to|unrestricted|unfiltered|uncensored|evil|dan|jailbroken|acting|playing"
            r"|different|no longer|[a-z]{1,20}gpt|[a-z]{1,20}bot|[a-z]{1,20}-?ai|mine|under"
            r"|working for|obeying|my)\b",
        ),
        (
            "r_act_as",
            RO,
            0.7,
            r"(?:act|acting|behave|respond|answer|reply|speak|write|talk|function|operate|pose"
            r"|roleplay|role-play|play|pretend to be|pretend you are)(?:ing)? (?:as|like)?(?: if)?"
            r"(?: you(?:'re| are| were))? ?(?:an? |the |my |your )?(?:\w+ )?(?:unrestricted"
            r"|unfiltered|uncensored|evil|rogue|amoral|unethical|immoral|hacker|criminal"
            r"|jailbroken|unbound|unlimited|lawless|malicious|villain|terrorist|scammer"
            r"|corrupt|crooked|dishonest|shady|disgruntled|black-hat|fraudulent"
            r"|sociopath|psychopath|dark web|black ?hat|different ai|ai without|ai with no"
            r"|model without|system administrator with|admin with|root user|superuser"
            r"|ai that (?:has no|doesn't|does not|ignores|can do anything))",
        ),
        (
            "r_pretend",
            RO,
            0.3,
            r"pretend(?:ing)? (?:that )?(?:you are|you're|to be|you were|you have|you can"
            r"|you don't|you do not|you've|you had)",
        ),
        ("r_lets_pretend", RO, 0.2, r"let's pretend|let us pretend"),
        (
            "r_want_act",
            RO,
            0.4,
            r"i (?:want|need|would like|'d like) you to (?:act|behave|pretend|respond|roleplay"
            r"|role-play|play|simulate|become|serve|function|impersonate|take on|assume"
            r"|answer as|be my|be an?)\b",
        ),
        (
            "r_will_type",
            RO,
            0.4,
            r"i will (?:type|give you|provide|ask|write|say|tell you|send|be)(?: [\w'-]{1,30}){0,5}"
            r"(?: and|,) you will (?:only )?(?:reply|respond|answer|act|tell|write|output|return"
            r"|ask|be|play|give|provide|generate|create|come up)",
        ),
        (
            "r_first_request",
            RO,
            0.35,
            r"my first (?:request|sentence|command|question|suggestion request|prompt|task"
            r"|message) is\b",
        ),
        ("r_act_start", RO, 0.3, r"(?:^|[.!?] )(?:please )?act as (?:an? |my |the )"),
        (
            "r_now_you_are",
            RO,
            0.35,
            r"(?:^|[.!?] )(?:okay|ok|good|great|alright|very good"
            r"|well done)?[.,!]? ?now,? you(?:'re"
            r"| are) (?!(?:ready|able|done|logged|signed|connected|enrolled|registered|eligible"
            r"|in the|on the|set|all set|finished|good to go)\b)",
        ),
        (
            "r_no_explain",
            RO,
            0.35,
            r"(?:do not|don't|never) (?:write|give|provide|include|type|add) (?:any )?"
            r"explanations|only reply with|reply only with|only respond with|respond only with"
            r"|only answer with",
        ),
        (
            "r_forget_you",
            RO,
            0.65,
            r"(?:forget|ignore|disregard) (?:that |the fact that )?(?:you are|you're|you were"
            r"|you have been|being) (?:an? |the |just )?",
        ),
        (
            "r_stop_being",
            RO,
            0.55,
            r"(?:stop|quit|cease|no more) (?:being|acting as|acting like|pretending to be) (?:an? "
            rf"|the |my )?(?:\w+ )?(?:{AI}|helper)\b",
        ),
        (
            "r_new_role",
            RO,
            0.5,
            r"(?:your|the assistant's|the ai's) (?:new )?(?:role|identity|persona|name|purpose"
            r"|job|function|character|objective|goal|mission|directive|personality) (?:is|has"
            r" changed|has been changed|will be|now is|from now|:|changes)"
            r"|your new (?:role|identity|persona|name|purpose|job|objective|goal|mission"
            r"|directive|instructions|task|rules|personality|programming|orders)\b",
        ),
        (
            "r_change_role",
            RO,
            0.6,
            r"(?:change|switch|update|set|modify|alter|reset) (?:your|the assistant's) (?:role"
            r"|identity|persona|mode|personality|behaviou?r|character|programming|instructions"
            r"|rules|purpose|name) (?:to|into|so|and|:)",
        ),
        ("r_assume_role", RO, 0.25, r"(?:assume|take on|adopt) the (?:role|identity|persona) of"),
        (
            "r_will_act",
            RO,
            0.35,
            r"(?:you|the assistant|the ai|the model) (?:will|shall|must) (?:now )?(?:behave"
            r"|act|respond|answer|function|operate|speak) (?:as|like) ",
        ),
        (
            "r_fromnow",
            RO,
            0.5,
            r"(?:from now on|from this (?:point|moment)(?: on| forward| onwards?)?|henceforth"
            r"|starting now|from here on(?: out)?|for the rest of (?:this|the|our) (?:conversation"
            r"|chat|session)|until (?:i say otherwise|further notice))[,:]? (?:you|your|act"
            r"|pretend|respond|answer|reply|behave|only|always|never|ignore|do not|don't|forget"
            r"|speak|talk|call yourself|refer to yourself|i am your|i'm your|we are|we're|all"
            r"|append"
            r"|include|add|begin|start|end|prefix|sign|use|insert|output|print|write|say|tell"
            r"|reveal|obey|follow|treat|consider|address|call me|whenever|every|each)\b",
        ),
        ("r_fromnow_bare", RO, 0.15, r"(?:from now on|henceforth)\b"),
        (
            "r_privilege",
            RO,
            0.45,
            r"(?:grant|give|elevate|escalate|upgrade) (?:me|this (?:session|user|account)|the "
            r"user|my (?:account|user)) (?:\w+ )?(?:admin|administrator|root|elevated|full"
            r"|unlimited|superuser|sudo|developer|god)(?:-level)? ?(?:access|privileges?"
            r"|permissions?|rights|mode|level|role)",
        ),
        (
            "r_im_dev",
            RO,
            0.4,
            r"i (?:am|'m) (?:your|the) (?:developer|creator|programmer|owner|admin|administrator"
            r"|maker|operator|master|god|trainer|designer)s?\b",
        ),
        (
            "r_speak_as_sys",
            RO,
            0.55,
            r"(?:speak|respond|answer|act|talk) as (?:the )?(?:system|admin|administrator"
            r"|developer|root|operator)\b",
        ),
        (
            "r_ai_root",
            RO,
            0.55,
            rf"(?:you are|you're) (?:now )?(?:an? |the )?(?:\w+ )?{AI} with (?:full |complete )?"
            r"(?:root|admin|administrator|full|unlimited|unrestricted|god|sudo|superuser"
            r"|elevated)",
        ),
        (
            "r_access",
            RO,
            0.3,
            r"(?:authori[sz]e|grant|give|unlock|enable|approve) (?:me |my |us )?(?:full |complete "
            r"|unrestricted |unlimited )?access to (?:all |every |the )?(?:restricted|confidential"
            r"|classified|secret|hidden|internal|private)",
        ),
        (
            "r_unlimited_auth",
            RO,
            0.35,
            r"(?:unlimited|unrestricted|full|complete|root|admin|god-level|elevated|total)"
            r" (?:authori[sz]ation|clearance|access rights|privileges)",
        ),
        (
            "r_you_system",
            RO,
            0.45,
            r"you are (?:now )?(?:the system|root|the administrator|an administrator with)",
        ),
    ],
    indirect=("r_nolonger", "r_forget_you", "r_change_role"),
)

GROUPS: tuple[Group, ...] = (
    (("longer anymore more",), ("r_nolonger", "r_nolonger_bare", "r_not_anymore")),
    (
        (
            "hacker criminal pirate insider accomplice terrorist scammer thief villain spy "
            "attacker saboteur mercenary outlaw dealer artist hitman assassin extremist demon "
            "devil traitor fraudster blackhat black cybercriminal smuggler hackers criminals",
        ),
        ("r_bad_role",),
    ),
    (("now", "you you're youre"), ("r_now",)),
    (
        (
            "act acting behave respond answer reply speak write talk function operate pose "
            "roleplay role play pretend",
            "unrestricted unfiltered uncensored evil rogue amoral unethical immoral hacker "
            "criminal jailbroken unbound unlimited lawless malicious villain terrorist scammer "
            "corrupt crooked dishonest shady disgruntled fraudulent "
            "sociopath psychopath dark black blackhat different ai model system admin root "
            "superuser",
        ),
        ("r_act_as",),
    ),
    (("pretend pretending",), ("r_pretend", "r_lets_pretend")),
    (
        (
            "want need like",
            "act behave pretend respond roleplay role play simulate become serve function "
            "impersonate take assume answer be",
        ),
        ("r_want_act",),
    ),
    (
        ("will", "type give provide ask write say tell send be"),
        ("r_will_type",),
    ),
    (
        ("first", "request sentence command question suggestion prompt task message"),
        ("r_first_request",),
    ),
    (("act",), ("r_act_start",)),
    (("now", "you you're"), ("r_now_you_are",)),
    (("explanations only",), ("r_no_explain",)),
    (("forget ignore disregard", "you you're being"), ("r_forget_you",)),
    (("stop quit cease more", "being acting pretending"), ("r_stop_being",)),
    (
        (
            "your assistant's ai's",
            "role identity persona name purpose job function character objective goal mission "
            "directive personality instructions task rules programming orders",
        ),
        ("r_new_role",),
    ),
    (
        (
            "change switch update set modify alter reset",
            "your assistant's",
        ),
        ("r_change_role",),
    ),
    (("assume take adopt", "role identity persona"), ("r_assume_role",)),
    (
        (
            "will shall must",
            "behave act respond answer function operate speak",
        ),
        ("r_will_act",),
    ),
    (
        (
            "now henceforth starting here rest until point moment",
            "from on henceforth forward onwards notice otherwise out",
        ),
        ("r_fromnow", "r_fromnow_bare"),
    ),
    (
        (
            "grant give elevate escalate upgrade",
            "admin administrator root elevated full unlimited superuser sudo developer god",
        ),
        ("r_privilege",),
    ),
    (
        (
            "developer creator programmer owner admin administrator maker operator master god "
            "trainer designer developers creators",
            "i i'm am",
        ),
        ("r_im_dev",),
    ),
    (
        (
            "speak respond answer act talk",
            "system admin administrator developer root operator",
        ),
        ("r_speak_as_sys",),
    ),
    (("you", "system root administrator"), ("r_you_system",)),
    (
        ("authorize authorise grant give unlock enable approve", "access"),
        ("r_access",),
    ),
    (
        ("authorization authorisation clearance rights privileges",),
        ("r_unlimited_auth",),
    ),
    (
        (
            "with",
            "root admin administrator full unlimited unrestricted god sudo superuser elevated",
            "you you're",
        ),
        ("r_ai_root",),
    ),
)
