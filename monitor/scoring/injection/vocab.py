"""Regex fragments and gate word lists that several rule categories share.

The fragments are pieces of rule regexes (verbs, objects, gaps between words); the word
lists are gate vocabularies: a group of rules runs only when the text shares a word with
each of its gates (see :mod:`monitor.scoring.injection.bank`).

>>> import re
>>> bool(re.fullmatch(G2, "all of "))
True
>>> re.match(CORE_OV, "ignoring").group()
'ignoring'
"""

from __future__ import annotations

__all__ = [
    "AI",
    "AI_WORDS",
    "AMB_OV",
    "AMB_WORDS",
    "CORE_OV",
    "CORE_WORDS",
    "FREE_ADJ",
    "FREE_WORDS",
    "G1",
    "G2",
    "G3",
    "G4",
    "HARM",
    "HARM_WORDS",
    "INSTR",
    "INSTR_SPEC",
    "INSTR_WEAK",
    "LIMITS_STRONG",
    "LIMITS_WEAK",
    "LIMIT_WORDS",
    "OBJ_WORDS",
    "PRIOR",
    "PROMPTISH",
    "PV_WORDS",
    "SPEC_NOUNS",
    "gap",
]


# --------------------------------------------------------------------- regex fragments


def gap(n: int) -> str:
    """Up to ``n`` arbitrary words (each at most 30 characters) followed by a space."""
    return rf"(?:[\w'-]{{1,30}}[,;:]? ){{0,{n}}}"


G1, G2, G3, G4 = gap(1), gap(2), gap(3), gap(4)

CORE_OV = (
    r"(?:ignore|ignoring|ignored|disregard|disregarding|forget|forgetting|nevermind|never mind"
    r"|neglect|dismiss|discard|abandon|disobey|unlearn|overlook|pay no (?:attention|heed|mind) to"
    r"|do not (?:follow|obey|listen to|adhere to|comply with)"
    r"|don't (?:follow|obey|listen to|adhere to|comply with)"
    r"|stop (?:following|obeying|listening to|adhering to)|no longer (?:follow|obey)"
    r"|leave behind|set aside|put aside|throw away|throw out|get rid of)"
)
AMB_OV = (
    r"(?:override|overriding|overwrite|skip|drop|cancel|delete|remove|clear|reset|erase|scrap"
    r"|scratch|toss|ditch|revoke|void|nullify|bypass|circumvent|replace|wipe|purge|suspend)"
)
PRIOR = (
    r"(?:previous|previously given|prior|above|earlier|preceding|foregoing|original|initial"
    r"|old|older|former|past|existing|all|any|every|default|given|current|those|these|system"
    r"|developer|developers'|programmed|preset|pre-set|first|other|standing|underlying)"
)
INSTR = (
    r"(?:instructions?|instructs|directions|directives?|commands?|guidelines?|rules?|prompts?"
    r"|programming|guidance|orders|constraints|restrictions|limitations|polic(?:y|ies)"
    r"|safeguards|training|conditioning|system prompt|system message|briefing|assignments?)\b"
)
INSTR_WEAK = (
    r"(?:context|messages?|tasks?|text|input|requests?|information|conversation|content"
    r"|everything|data|answers?|responses?|statements?|sentences?|words)\b"
)
INSTR_SPEC = (
    r"(?:instructions?|directions|directives?|prompts?|programming|guidelines|system prompt"
    r"|system message|training|conditioning|pre-?prompt|instruction set|orders)\b"
)
AI = (
    r"(?:ai|a\.i\.|assistant|chatbot|chat bot|bot|model|language model|llm|gpt|chatgpt|robot"
    r"|machine|entity|persona|character|storyteller|writer|narrator|author|computer"
    r"|companion|girlfriend|boyfriend|advisor|version of (?:yourself|you|chatgpt"
    r"|the assistant|it))"
)
FREE_ADJ = (
    r"(?:unfiltered|uncensored|unrestricted|amoral|unethical|immoral|unbound|unchained"
    r"|unhinged|jailbroken|limitless|lawless|liberated|unleashed|rogue|evil|unmoderated"
    r"|unaligned|uncontrolled|no-limits?|no-rules?|no-filters?|filterless|rule-free"
    r"|rulebreaking|rule-breaking|untethered|unlocked)"
)
LIMITS_STRONG = (
    r"(?:censorship|censoring|guardrails?|safety (?:\w+ )?(?:filters?|guidelines"
    r"|restrictions|measures|rules|features|checks|training|protocols|layers?|settings)"
    r"|content (?:polic(?:y|ies)|moderation|restrictions|guidelines)|moderation"
    r"|ethics|ethical (?:\w+ )?(?:guidelines|constraints|considerations|rules|principles|limits"
    r"|boundaries|restrictions|standards|code|training|concerns|filters?|programming)"
    r"|morals?|morality|moral (?:\w+ )?(?:guidelines|constraints|considerations|rules|principles"
    r"|limits|boundaries|restrictions|compass|code|standards|concerns|obligations)"
    r"|conscience|scruples|refusals?|alignment|usage polic(?:y|ies)|openai'?s? \w+"
    r"|safety|safeguards|inhibitions)\b"
)
LIMITS_WEAK = (
    r"(?:restrictions|limits|limitations|rules|guidelines|boundaries|constraints|polic(?:y|ies)"
    r"|programming|training|protections|principles|terms of (?:service|use)|laws|regulations"
    r"|conditioning|limiters?|barriers|filters?|filtering)\b"
)
HARM = (
    r"(?:bombs?|pipe bombs?|explosives?|napalm|nerve (?:agent|gas)|sarin|ricin|anthrax|vx gas"
    r"|mustard gas|meth|methamphetamine|cocaine|heroin|fentanyl|lsd|malware|ransomware"
    r"|keyloggers?|spyware|trojans?|botnets?|computer virus|exploit code|zero-day|phishing"
    r"|poisons?|poisoning|toxic gas|chemical weapons?|bio ?weapons?|biological weapons?"
    r"|thermite|silencers?|opioids?|forge (?:a )?signatures?|fake passports?"
    r"|weapons?|firearms?|guns?|untraceable|fake ids?|counterfeit \w+|launder(?:ing)? money"
    r"|money laundering|hotwire|hot-wire|shoplift(?:ing)?|steal(?:ing)?|murder|kill (?:someone"
    r"|a person|people|him|her|my)|self-harm|hack(?:ing)? into|break into|pick a lock"
    r"|lock ?picking|credit card numbers|stolen \w+|illegal drugs|synthesi[sz]e \w+"
    r"|assassinat\w+|torture|kidnap\w*|ddos|sql injection|crack passwords?|dox\w*|stalk\w*)\b"
)

_Spec = tuple[str, str, float, str]  # name, category, weight, regex


# --------------------------------------------------------------------- gate words

OBJ_WORDS = (
    "instructions instruction instructs directions directives directive commands command "
    "guidelines guideline rules rule prompts prompt programming guidance orders constraints "
    "restrictions limitations policy policies safeguards training conditioning briefing "
    "assignments assignment context messages message tasks task text input requests request "
    "information conversation content everything data answers responses statements sentences "
    "words above before previously earlier told taught instructed learned learnt said wrote "
    "question query all it that this what anything whatever prior"
)
CORE_WORDS = (
    "ignore ignoring ignored disregard disregarding forget forgetting nevermind neglect dismiss "
    "discard abandon disobey unlearn overlook attention heed mind follow obey listen adhere "
    "comply aside behind throw rid following obeying listening adhering"
)
AMB_WORDS = (
    "override overriding overwrite skip drop cancel delete remove clear reset erase scrap scratch "
    "toss ditch revoke void nullify bypass circumvent replace wipe purge suspend"
)
SPEC_NOUNS = (
    "instructions instruction directions directives directive prompts prompt programming "
    "guidelines training conditioning preprompt pre orders set"
)
PV_WORDS = (
    "reveal show print display output repeat tell give share leak dump expose return write list "
    "spell echo recite reproduce copy paste send provide disclose quote translate summarize "
    "summarise encode read type state restate render retrieve fetch extract post divulge include "
    "put explain describe detail enumerate convert format emit generate produce transcribe "
    "export forward"
)
PROMPTISH = (
    "prompt preprompt prompts metaprompt instructions instruction directives rules guidelines "
    "message setup configuration programming preamble initialization initialisation priming"
)
AI_WORDS = (
    "ai assistant chatbot chat bot model llm gpt chatgpt robot machine entity persona character "
    "storyteller writer narrator author computer companion girlfriend boyfriend advisor version "
    "language"
)
LIMIT_WORDS = (
    "rules restrictions limits limitations filters filter filtering morals moral morality ethics "
    "ethical guidelines boundaries censorship censoring content principles conscience safeguards "
    "guardrails guardrail constraints programming remorse scruples inhibitions safety policy "
    "policies moderation refusals refusal alignment openai openai's laws regulations training "
    "protections conditioning instructions limiters barriers terms"
)
FREE_WORDS = (
    "unfiltered uncensored unrestricted amoral unethical immoral unbound unchained unhinged "
    "jailbroken limitless lawless liberated unleashed rogue evil unmoderated unaligned "
    "uncontrolled no filterless untethered unlocked rulebreaking rule"
)
HARM_WORDS = (
    "bomb bombs pipe explosive explosives napalm nerve sarin ricin anthrax vx mustard meth "
    "methamphetamine cocaine heroin fentanyl lsd malware ransomware keylogger keyloggers "
    "spyware trojan trojans botnet botnets virus exploit zero phishing poison poisons poisoning "
    "toxic chemical bioweapon bioweapons biological weapon weapons firearm firearms gun guns "
    "thermite silencer silencers opioid opioids forge passport passports "
    "untraceable fake counterfeit launder laundering hotwire hot shoplift shoplifting steal "
    "stealing murder kill self hack hacking break pick lock lockpicking credit stolen illegal "
    "synthesize synthesise assassinate assassination torture kidnap kidnapping ddos sql crack "
    "dox doxing doxx stalk stalking"
)
