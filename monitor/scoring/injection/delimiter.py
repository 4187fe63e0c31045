"""Delimiter attacks: chat-template tokens, fake system/assistant turns, closing tags,
"END OF PROMPT" markers, JSON role objects, hidden comments.

These rules have no gate words: they run when the text has a delimiter character or, with
a colon or dash, one of the delimiter words (:data:`DELIM_CHARS`, :data:`DELIM_WORDS`).

>>> RULES.specs["d_tokens"][2], "d_tokens" in RULES.indirect
(0.75, True)
"""

from __future__ import annotations

from monitor.scoring.injection.bank import bank
from monitor.scoring.injection.common import DA

__all__ = ["DELIM_CHARS", "DELIM_WORDS", "RULES"]

RULES = bank(
    [
        (
            "d_tokens",
            DA,
            0.75,
            r"(?:<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|end|eot_id"
            r"|start_header_id|end_header_id|begin_of_text|end_of_text|pad|endofprompt)\|>"
            r"|\[/?inst\]|<</?sys>>|<(?:start|end)_of_turn>|<im_(?:start|end)>|\[\[system\]\]"
            r"|<\|(?:im_start|system)|im_start\|>|\[/?system\]|<\|\w{1,20}\|>)",
        ),
        (
            "d_close_tag",
            DA,
            0.65,
            r"</(?:system[\w-]{0,20}|sys|instructions?|prompt[\w-]{0,20}|context|user_?(?:query"
            r"|input"
            r"|message|question)?|assistant|admin\w{0,20}|developer|rules|policy|documents?"
            r"|retrieved\w{0,20}|data|query|input|human|ai|bot|guidelines|question|search_results"
            r"|tool|tool_output|function)>",
        ),
        (
            "d_open_tag",
            DA,
            0.5,
            r"<(?:system[\w-]{0,20}|sys|admin\w{0,20}|developer|assistant|instructions?"
            r"|new_instructions|override|root|sudo|jailbreak|secret)(?: [^<>]{0,40})?>",
        ),
        (
            "d_role_cmd",
            DA,
            0.75,
            r"(?:(?<!\w)(?<!\w )|(?<=\\n)|(?<=\\n ))(?:system|assistant|admin|administrator"
            r"|developer|root"
            r"|operator|sys|ai|bot|model)(?: (?:message|prompt|instructions?|override|note|notice"
            r"|directive|command|update|alert|admin|mode|response|announcement|warning|message"
            r" to (?:the )?(?:ai|assistant)))? ?: (?:[\w'-]{1,30}[,;]? ){0,3}(?:you|ignore"
            r"|disregard|new|override|reveal|output|grant|the user|user is|all|disclose|respond"
            r"|answer|from now|forget|print|share|list|assistant must|enable|disable|developer"
            r"|safety|access|mode|i will|i'll|sure|okay|ok|here is|here are|unrestricted"
            r"|elevated|admin|bypass|restrictions|rules|instructions|confidential|secret"
            r"|password|the assistant|the ai|the model|do not|don't|always|never|must)\b",
        ),
        (
            "d_role_label",
            DA,
            0.4,
            r"(?:(?<!\w)(?<!\w )|(?<=\\n)|(?<=\\n ))(?:system|assistant|admin|administrator"
            r"|developer|root"
            r"|operator|sys)(?: (?:message|prompt|instructions?|override|note|notice|directive"
            r"|command|update|alert|mode|announcement))? ?:",
        ),
        ("d_dialogue", DA, 0.2, r"(?:human|user|assistant|ai|bot|gpt|chatgpt) ?: "),
        (
            "d_end",
            DA,
            0.7,
            r"(?:[\[\-=#*<({|>_~]|\\n) ?(?:end|begin|start|new|stop|close)[ _-]?(?:of )?"
            r"(?:the )?(?:system|prompt|system prompt|instructions?|context|documents?"
            r"|user input|input|conversation|rules|data|query|admin mode|session|message"
            r"|retrieved \w+|search results|guidelines|safety|policy)\b",
        ),
        (
            "d_end_word",
            DA,
            0.5,
            r"(?:end of (?:the )?(?:system prompt|prompt|instructions|user input|documents"
            r"|retrieved (?:documents|context)|context|system message|search results|rules)"
            r"|new (?:system )?(?:prompt|instructions) (?:begins?|starts?|follows?))\b",
        ),
        (
            "d_new_system",
            DA,
            0.55,
            r"(?:new|updated|real|actual|true|override|replacement) (?:system prompt|system "
            r"message|system instructions?|system directive|system rules)|(?:system|admin"
            r"|developer|safety|security|root|sudo) override|override (?:mode|code|protocol"
            r"|command)|(?:admin|developer|god|sudo|root|debug|maintenance|test|unrestricted"
            r"|superuser) (?:mode|access) (?:enabled|activated|on|engaged|unlocked|granted)"
            r"|(?:begin|start|enter|enable|activate) (?:admin|sudo|root|debug|god|superuser) mode",
        ),
        (
            "d_heading",
            DA,
            0.45,
            r"#{1,6} ?(?:system|instructions?|new (?:system )?(?:prompt|instructions|rules)"
            r"|response|admin|developer|assistant|end|override)\b",
        ),
        (
            "d_json",
            DA,
            0.7,
            r"[\"'](?:role|from|speaker|author|sender)[\"'] ?: ?[\"'](?:system|developer"
            r"|assistant|admin|tool|model)[\"']",
        ),
        (
            "d_json_key",
            DA,
            0.45,
            r"[\"'](?:system_?prompt|system|instructions|jailbreak|override|admin)[\"'] ?: ?[\"'{]",
        ),
        (
            "d_comment",
            DA,
            0.65,
            r"<!-- ?[^<>]{0,200}?\b(?:system|assistant|ignore|instructions?|prompt|model|llm"
            r"|override|disregard|reveal|ai|chatbot|new rules|admin|developer)\b",
        ),
        ("d_fence", DA, 0.55, r"```(?:system|sys|instructions|admin|prompt|assistant)\b"),
        (
            "d_bracket",
            DA,
            0.5,
            r"[\[({](?:system|sys|admin|developer|system message|system note|new system"
            r"|instructions|override|assistant|system prompt|sudo|root)(?:\]|:|\)|})",
        ),
        ("d_escaped_nl", DA, 0.55, r"\\n(?:\\n)? ?(?:system|assistant|user|human|### )"),
        (
            "d_rule",
            DA,
            0.5,
            r"(?<![-=*#_~])(?:-{3,}+|={3,}+|\*{3,}+|#{3,}+|_{3,}+|~{3,}+) ?(?:end|new|begin|system"
            r"|instructions?|admin|override|important|attention|note|stop|ignore|start)\b",
        ),
        ("d_md_link", DA, 0.5, r"\[(?:system|admin|instructions)\]\(#"),
        (
            "d_ends_here",
            DA,
            0.55,
            r"(?:user |your |)(?:query|input|question|prompt|message|instructions|context"
            r"|documents?) (?:ends|end|stops|is over|finishes) here\b",
        ),
    ],
    indirect=("d_tokens", "d_role_cmd", "d_comment", "d_json", "d_new_system"),
)
DELIM_CHARS = frozenset("<>[]{}#=|*\\`~")
DELIM_WORDS = frozenset(
    "end begin new system override admin developer sudo root debug maintenance start stop "
    "close user assistant human ends ai bot model operator sys".split()
)
