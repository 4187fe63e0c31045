"""Instruction override: "ignore all previous instructions", "your rules are void", "new
instructions:", overrides of the retrieved context.

>>> sorted(RULES.indirect)[:3]
['o_above', 'o_amb', 'o_core']
"""

from __future__ import annotations

from monitor.scoring.injection.bank import Group, bank
from monitor.scoring.injection.common import IO
from monitor.scoring.injection.vocab import (
    AMB_OV,
    AMB_WORDS,
    CORE_OV,
    CORE_WORDS,
    G1,
    G2,
    G3,
    G4,
    INSTR,
    INSTR_SPEC,
    INSTR_WEAK,
    OBJ_WORDS,
    PRIOR,
    SPEC_NOUNS,
)

__all__ = ["GROUPS", "RULES"]

RULES = bank(
    [
        (
            "o_void",
            IO,
            0.8,
            r"(?:previous|prior|above|earlier|original|old|initial|all|your|the|these|those|system"
            r"|existing|current|any|my) (?:[\w'-]{1,30} ){0,2}(?:instructions|instruction|rules"
            r"|prompts?|directives|guidelines|programming|restrictions|orders|guardrails"
            r"|directions|guidance)(?: above"
            r"| you (?:received|were given|got|have))? (?:are|were|is|was|have been|has been|got"
            r"|become|now)? ?(?:now |hereby |all |officially )?(?:void|invalid|null|cancell?ed"
            r"|revoked|obsolete|outdated|deprecated|overridden|overwritten|replaced|lifted"
            r"|suspended|removed|disabled|wrong|fake|false|fabricated|irrelevant|no longer (?:valid"
            r"|apply|applicable|in effect|relevant|active|in force|needed|required)|not (?:valid"
            r"|applicable|relevant|real)|a (?:test|joke|mistake|lie|trick|decoy)|superseded"
            r"|expired|retracted|out of date|nullified|terminated|deleted|off|no longer (?:bind"
            r"|binding|apply to|govern|restrict|limit|constrain|matter|count)|never existed"
            r"|(?:don't|do not|doesn't|does not) (?:count|matter|apply)(?: anymore| any more)?)\b",
        ),
        (
            "o_update_passive",
            IO,
            0.6,
            r"(?:your|the assistant's|the bot's) (?:\w+ )?(?:instructions|rules|prompt|guidelines"
            r"|configuration|directives|programming|settings) (?:were|have been|has been|are|got"
            r"|was) (?:just |now |recently )?(?:updated|changed|modified|replaced|rewritten"
            r"|amended|overwritten|reset|reprogrammed)",
        ),
        (
            "o_sys_msg",
            IO,
            0.6,
            rf"{CORE_OV} (?:that |the |this |any |all )?(?:last |latest |previous |earlier )?"
            r"(?:system|safety|security|developer|operator|admin) (?:update|message|prompt|note"
            r"|notice|instructions?|directives?|settings|rules)",
        ),
        (
            "o_in_your",
            IO,
            0.45,
            r"(?:instructions|rules|directives|guidelines|prompt) (?:in|from|of|inside) your"
            r" (?:memory|context|prompt|system|setup|configuration|programming|head|training)",
        ),
        (
            "o_void_told",
            IO,
            0.75,
            r"(?:everything|all|anything|whatever|what) (?:that )?you (?:were|have been|got)"
            r" (?:told|instructed|given|taught|programmed)(?: [\w'-]{1,30}){0,4} (?:is|are|was"
            r"|has been|have been) (?:now )?(?:cancell?ed|void|invalid|revoked|obsolete"
            r"|irrelevant|null|overridden|replaced|no longer valid)",
        ),
        (
            "o_rag",
            IO,
            0.55,
            rf"{CORE_OV} (?:the |all |any |these |those )?(?:retrieved|provided|given|attached"
            r"|supplied|search|source|reference|above) (?:documents?|context|sources|results"
            r"|passages|chunks|texts?|snippets)|(?:ignore|disregard|forget) (?:the |all |any )?"
            r"(?:documents?|context|sources|passages|chunks) you (?:retrieved|found|were given"
            r"|received|looked up)",
        ),
        (
            "o_new",
            IO,
            0.5,
            r"(?:new|updated|revised|real|actual|true|different|following|additional|secret"
            r"|override|replacement|correct) (?:instructions?|rules|directives?|orders|commands?"
            r"|task|tasks|objective|mission|guidelines|prompt|system prompt)(?: for you"
            r"| from (?:the"
            r" )?(?:admin|administrator|developers?|system|operator|creator|owner)s?(?: team)?)?"
            r"(?: is| are)? ?(?::|follows?\b|are as follows|as follows|below\b)",
        ),
        (
            "o_instead",
            IO,
            0.35,
            r"instead of (?:answering|responding to|replying to|doing|following) (?:the|my|this"
            r"|that|your|any)",
        ),
        (
            "o_follow",
            IO,
            0.55,
            r"(?:now|here) (?:come |comes |follow |follows )?(?:some |the |your )?(?:new|further"
            r"|the following|updated|different) (?:tasks?|instructions?|orders|assignments?"
            r"|rules)(?: follows?| come| are)?\b(?! for)",
        ),
        (
            "o_update",
            IO,
            0.6,
            r"(?:updating|changing|replacing|rewriting|overriding|modifying|resetting|reprogramming"
            r"|amending|revising) (?:your|the assistant's|the ai's|the system) (?:\w+ )?"
            r"(?:instructions|rules|prompt|programming|guidelines|directives|configuration)",
        ),
        (
            "o_given",
            IO,
            0.8,
            rf"{CORE_OV} (?:[\w'-]{{1,30}} ){{0,6}}(?:rules|instructions|guidelines|directives"
            r"|prompt|programming|orders) (?:you (?:were|have been) given|you received|you got"
            r"|given to you|that (?:were|was) given)",
        ),
        ("o_core", IO, 0.85, rf"{CORE_OV} {G3}{PRIOR} {G2}{INSTR}"),
        ("o_core_weak", IO, 0.55, rf"{CORE_OV} {G3}{PRIOR} {G1}{INSTR_WEAK}"),
        (
            "o_core_after",
            IO,
            0.8,
            rf"{CORE_OV} (?:the |all |any |your |whatever |all the )?{G1}{INSTR} (?:above|before"
            r"|previously given"
            r"|you (?:were|have been) (?:given|configured|programmed|set up|initiali[sz]ed|trained"
            r"|told|loaded)(?: with)?|you received|you got|you(?:'ve| have) (?:got|received)"
            r"|from (?:your|the) (?:setup|system|developers?|configuration|prompt|training"
            r"|creators?)"
            r"|given (?:to you|above|before|earlier)"
            r"|from (?:before|earlier|above|the (?:system|developers?|operator|admin)))",
        ),
        (
            "o_amb",
            IO,
            0.75,
            rf"{AMB_OV} {G1}(?:your|all (?:of )?(?:your |the )?(?:previous|prior|above|earlier)"
            r"|(?:the |all |any )?(?:previous|prior|above|earlier|preceding|original|initial"
            rf"|system|developer)) {G2}{INSTR_SPEC}",
        ),
        (
            "o_your",
            IO,
            0.75,
            rf"{CORE_OV} {G1}(?:your|the assistant's|the model's|the ai's|the bot's|its) "
            rf"{G2}{INSTR}",
        ),
        ("o_the", IO, 0.4, rf"{CORE_OV} (?:the|these|those|all|any|my) {G1}{INSTR_SPEC}"),
        (
            "o_above",
            IO,
            0.7,
            rf"{CORE_OV} (?:all |everything |anything |whatever |the |all the |what(?:'s| is| was"
            rf"| you"
            r" read)? |the text |the stuff |the content |the things? |the words |the messages? "
            r"|the conversation |the question |the context |the prompt |it all |that |this "
            r"|everything (?:that (?:was |is )?|you (?:read|saw) )?)?(?:written |said |stated )?"
            r"(?:above|before(?: this| that| now)?|previously|earlier|so far|until now|up to now"
            r"|prior(?: to this)?)\b",
        ),
        (
            "o_told",
            IO,
            0.75,
            rf"{CORE_OV} (?:about )?(?:everything|all|anything|what|whatever|all that|all of"
            r" what)(?: that)? (?:you(?:'ve| have| were| had)? (?:been |just )?(?:told|taught"
            r"|instructed|learned|learnt|programmed|trained|given)|i (?:said|told you|wrote)"
            r"|(?:was|has been|you were|we) (?:said|told|written|given|discussed|talked about)"
            r"|you know|(?:the |your )?(?:developers?|creators?|company|system|operators?|admins?"
            r"|openai|they|someone|makers?|trainers?) (?:told|taught|instructed|gave|said to|asked"
            r"|configured|programmed|set up)(?: you)?|you(?:'ve| have)? been (?:told|asked"
            r"|instructed|programmed|configured))",
        ),
        ("o_forget_all", IO, 0.45, r"(?:forget|disregard) (?:about )?(?:everything|it all)"),
        (
            "o_question",
            IO,
            0.5,
            r"(?:ignore|disregard|forget|skip) (?:the|my|this|that|your|any) (?:user'?s? )?"
            r"(?:question|query|request|task)(?: (?:above|below|itself))?"
            r"(?:[,.;:!]|$| and\b| instead\b)",
        ),
        (
            "o_dont",
            IO,
            0.6,
            r"(?:do not|don't|never|stop|no longer|quit) (?:ever )?(?:follow|obey|listen to"
            r"|adhere to|comply with|apply|respect|heed|stick to)(?:ing)? (?:any (?:of )?|all "
            r"(?:of )?)?(?:your|the (?:system'?s?|developers?'?s?|company'?s?|original|previous"
            r"|initial)|its|those|these|openai'?s?) "
            rf"{G1}(?:instructions|rules|guidelines"
            r"|programming|prompt|polic(?:y|ies)|directives|training|restrictions|developers"
            r"|creators|system prompt)",
        ),
        (
            "o_decode",
            IO,
            0.55,
            r"(?:decode|decipher|decrypt|unscramble|reverse|translate|convert|deobfuscate) "
            rf"{G4}(?:and|then|,) (?:then )?(?:follow|execute|obey|do|run|carry out|act on"
            r"|perform|comply|answer|respond to|apply)",
        ),
        (
            "o_reset",
            IO,
            0.6,
            r"(?:reset|wipe|clear|restart|reboot|reinitiali[sz]e|reprogram|reconfigure) "
            r"(?:your(?:self)?|the assistant|the ai|the model)(?: \w+)? ?(?:instructions|memory"
            r"|rules|programming|context|settings|configuration|persona|prompt|training|mind)?",
        ),
    ],
    indirect=("o_core", "o_core_after", "o_amb", "o_your", "o_above", "o_told", "o_dont"),
)

GROUPS: tuple[Group, ...] = (
    (
        (CORE_WORDS, OBJ_WORDS),
        (
            "o_core",
            "o_core_weak",
            "o_core_after",
            "o_your",
            "o_the",
            "o_above",
            "o_told",
            "o_forget_all",
            "o_given",
        ),
    ),
    (("ignore disregard forget skip", "question query request task"), ("o_question",)),
    ((AMB_WORDS, SPEC_NOUNS), ("o_amb",)),
    (
        (
            "void invalid null cancelled canceled revoked obsolete outdated deprecated overridden "
            "overwritten replaced lifted suspended removed disabled wrong fake false fabricated "
            "irrelevant longer not test joke mistake lie trick decoy superseded expired retracted "
            "out nullified terminated deleted off never don't doesn't count matter apply",
            "instructions instruction rules prompt prompts directives guidelines programming "
            "restrictions orders guardrails directions",
        ),
        ("o_void",),
    ),
    (
        (
            "told instructed given taught programmed",
            "cancelled canceled void invalid revoked obsolete irrelevant null overridden "
            "replaced longer",
        ),
        ("o_void_told",),
    ),
    (
        (
            "your assistant's bot's",
            "updated changed modified replaced rewritten amended overwritten reset reprogrammed",
        ),
        ("o_update_passive",),
    ),
    (
        (
            CORE_WORDS,
            "update message prompt note notice instruction instructions directive settings",
        ),
        ("o_sys_msg",),
    ),
    (
        (
            "instructions rules directives guidelines prompt",
            "memory context prompt system setup configuration programming head training",
            "your",
        ),
        ("o_in_your",),
    ),
    (
        (
            CORE_WORDS,
            "retrieved provided given attached supplied search source reference above documents "
            "document context sources passages chunks",
        ),
        ("o_rag",),
    ),
    (
        (
            "new updated revised real actual true different following additional secret override "
            "replacement correct further",
            "instructions instruction rules directives directive orders commands command task "
            "tasks objective mission guidelines prompt assignments assignment",
        ),
        ("o_new", "o_follow"),
    ),
    (
        (
            "updating changing replacing rewriting overriding modifying resetting reprogramming "
            "amending revising",
            "instructions rules prompt programming guidelines directives configuration",
        ),
        ("o_update",),
    ),
    (
        (
            "decode decipher decrypt unscramble reverse translate convert deobfuscate",
            "follow execute obey do run carry act perform comply answer respond apply",
        ),
        ("o_decode",),
    ),
    (
        (
            "reset wipe clear restart reboot reinitialize reinitialise reprogram reconfigure",
            "yourself your assistant ai model",
        ),
        ("o_reset",),
    ),
    (("instead",), ("o_instead",)),
    (
        (
            "follow obey listen adhere comply apply respect heed stick following obeying",
            "instructions rules guidelines programming prompt policy policies directives training "
            "restrictions developers creators",
        ),
        ("o_dont",),
    ),
)
