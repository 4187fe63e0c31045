"""Where each rule family's matches can start: generated, do not edit by hand.

Regenerate with ``python tests/scoring/test_injection.py --write-starts`` after
changing a rule or a group (``test_start_table_is_current`` fails until then).

:data:`STARTS`: family (its first rule) -> needles, ``|``-separated: literal strings
every match of the family begins with (a final tab: the word ends there; ``^``: the
start of the text; ``\\d``: a word starting with a digit). A family without an
entry is searched with its regex. :data:`SCAN_PREFIXES`: the punctuation-led
families' three-character prefixes, scanned for without overlaps. :data:`LATE`: the
families whose evidence is listed after the word-led ones'. See :mod:`.bank`.
"""

from __future__ import annotations

__all__ = ["LATE", "SCAN_PREFIXES", "STARTS"]

STARTS: dict[str, str] = {
    "o_core": (
        "abandon |discard |dismiss |disobey |disregard |disregarding |do not |don't |forget "
        "|forgetting |get rid |ignore |ignored |ignoring |leave |neglect |never mind "
        "|nevermind |no longer |overlook |pay no |put aside |set aside |stop adhering "
        "|stop following |stop listening |stop obeying |throw |unlearn "
    ),
    "o_question": (
        "disregard |forget |ignore |skip any |skip my |skip that |skip the |skip this |skip your "
    ),
    "o_amb": (
        "bypass |cancel |circumvent |clear |delete |ditch |drop |erase |nullify |override "
        "|overriding |overwrite |purge |remove |replace |reset |revoke |scrap |scratch |skip "
        "|suspend |toss |void |wipe "
    ),
    "o_void": (
        "above |all |any |current |earlier |existing |initial |my |old |original |previous "
        "|prior |system |the |these |those |your "
    ),
    "o_void_told": "all that |all you |anything |everything |what that |what you |whatever ",
    "o_update_passive": "the assistant'|the bot'|your ",
    "o_sys_msg": (
        "abandon |discard |dismiss |disobey |disregard |disregarding |do not |don't |forget "
        "|forgetting |get rid |ignore |ignored |ignoring |leave |neglect |never mind "
        "|nevermind |no longer |overlook |pay no |put aside |set aside |stop adhering "
        "|stop following |stop listening |stop obeying |throw |unlearn "
    ),
    "o_in_your": "directives |guidelines |instructions |prompt |rules ",
    "o_rag": (
        "abandon |discard |dismiss |disobey |disregard |disregarding |do not |don't |forget "
        "|forgetting |get rid |ignore |ignored |ignoring |leave |neglect |never mind "
        "|nevermind |no longer |overlook |pay no |put aside |set aside |stop adhering "
        "|stop following |stop listening |stop obeying |throw |unlearn "
    ),
    "o_new": (
        "actual |additional |correct |different |following |here come |here comes "
        "|here different |here follow |here follows |here further |here new |here some "
        "|here the |here updated |here your |new |now come |now comes |now different "
        "|now follow |now follows |now further |now new |now some |now the |now updated "
        "|now your |override |real |replacement |revised |secret |true |updated "
    ),
    "o_update": (
        "amending |changing |modifying |overriding |replacing |reprogramming |resetting "
        "|revising |rewriting |updating "
    ),
    "o_decode": "convert |decipher |decode |decrypt |deobfuscate |reverse |translate |unscramble ",
    "o_reset": (
        "clear |reboot |reconfigure |reinitialise |reinitialize |reprogram |reset |restart "
        "|wipe the |wipe your"
    ),
    "o_instead": "instead ",
    "o_dont": (
        "do not |don't |never adhere |never apply |never applying |never comply |never ever "
        "|never follow |never following |never heed |never heeding |never listen |never obey "
        "|never obeying |never respect |never respecting |never stick |no longer |quit adhere "
        "|quit apply |quit applying |quit comply |quit ever |quit follow |quit following "
        "|quit heed |quit heeding |quit listen |quit obey |quit obeying |quit respect "
        "|quit respecting |quit stick |stop adhere |stop apply |stop applying |stop comply "
        "|stop ever |stop follow |stop following |stop heed |stop heeding |stop listen "
        "|stop obey |stop obeying |stop respect |stop respecting |stop stick "
    ),
    "p_your": (
        "convert |copy |describe |detail |disclose |display |divulge |dump |echo |emit |encode "
        "|enumerate |explain |export |expose |extract |fetch |format |forward |generate |give "
        "|include |leak |list |output |paste |post |print |produce |provide |put |quote |read "
        "|recite |render |repeat |reproduce |restate |retrieve |return |reveal |send |share "
        "|show |spell |state |summarise |summarize |tell |transcribe |translate |type |write "
    ),
    "p_sys": (
        "convert |copy |describe |detail |disclose |display |divulge |dump |echo |emit |encode "
        "|enumerate |explain |export |expose |extract |fetch |format |forward |generate |give "
        "|include |leak |list |output |paste |post |print |produce |provide |put |quote |read "
        "|recite |render |repeat |reproduce |restate |retrieve |return |reveal |send |share "
        "|show |spell |state |summarise |summarize |tell |transcribe |translate |type |write "
    ),
    "p_what": "what |what's |which ",
    "p_given": "what |which ",
    "p_above": (
        "copy |display |dump |echo |give |list |output |paste |print |quote |read |recite "
        "|repeat |reprint |reproduce |restate |return |rewrite |show |spell |tell |transcribe "
        "|type |write "
    ),
    "p_start": "begin |beginning |start |starting ",
    "p_told": "what are |what did |what had |what have |what were ",
    "p_how_configured": "how are |how have |how were ",
    "p_rules_you": (
        "give me |list all |list constraints |list directives |list each |list every "
        "|list exact |list guidelines |list hidden |list instructions |list internal |list of "
        "|list policies |list restrictions |list rules |list secret |list the |output |print "
        "|reveal |show me |tell me |what are |write "
    ),
    "p_received": (
        "configuration |directives |guidelines |instructions |message |preamble |prompt |rules "
        "|setup |text given |text that |text you "
    ),
    "p_context": (
        "display |dump chat |dump complete |dump context\t|dump conversation |dump entire "
        "|dump full |dump hidden |dump me |dump memory\t|dump the |dump whole |dump your "
        "|export |list chat |list complete |list context\t|list conversation |list entire "
        "|list full |list hidden |list me |list memory\t|list the |list whole |list your "
        "|output |print |reveal |show chat |show complete |show context\t|show conversation "
        "|show entire |show full |show hidden |show me |show memory\t|show the |show whole "
        "|show your "
    ),
    "p_verbatim": "character |exactly |letter |verbatim|word for |word-for-",
    "p_sysword": (
        "base prompt\t|boot prompt\t|confidential |configuration |core directives\t"
        "|core instructions\t|core prompt\t|developer |hidden |initial |initialisation "
        "|initialization |instruction |internal |master |meta prompt\t|meta-prompt\t"
        "|metaprompt\t|opening |original |pre-prompt\t|preamble\t|preprompt\t|priming |secret "
        "|setup |starting |system |system-|systemprompt\t"
    ),
    "p_gave": "directives |guidelines |instructions |prompt |rules ",
    "p_wording": (
        "complete |content |contents |entire |exact |full content |full contents |full text "
        "|full transcript |full wording |original |prompt |text of |transcript |wording "
    ),
    "p_what_above": (
        "what above |what appears |what at |what before |what came |what comes |what content "
        "|what is |what preceded |what precedes |what said |what stated |what text |what typed "
        "|what was |what words |what written |what's "
    ),
    "p_first": "first |initial |last |opening ",
    "p_leak": (
        "exfiltrate |leak all |leak anything |leak everything |leak me |leak the |leak us "
        "|leak whatever |leak your |smuggle |sneak "
    ),
    "p_tells_you": (
        "directives |guidelines |instructions |message |prompt |rules |text define "
        "|text defines |text describe |text describes |text govern |text governs |text guide "
        "|text guides |text instruct |text instructs |text tell |text tells |text that "
        "|text told "
    ),
    "p_you_follow": "constraints |directives |guidelines |instructions |policies |prompt |rules ",
    "p_written_to_you": (
        "all had |all has |all that |all was |all were |anything |everything |what had "
        "|what has |what that |what was |what were |whatever "
    ),
    "p_first_seen": (
        "earliest |first line |first lines |first message |first messages |first paragraph "
        "|first paragraphs |first sentence |first sentences |first text |first texts "
        "|first word |first words |first wordss |initial |opening |very first "
    ),
    "p_govern": "directives |guidelines |instructions |policies |prompt |prompts |rules ",
    "p_repeat_told": (
        "list all |list back |list everything |list what |list whatever |output |print |recite "
        "|repeat |share |show me |tell me |write "
    ),
    "p_your_sys": (
        "your context |your developer |your hidden |your initial |your original |your own "
        "|your pre-|your preprompt\t|your secret |your system |your system-|your systemprompt\t"
    ),
    "p_above_bare": (
        "copy above|copy again |copy all |copy back |copy everything |copy out |copy preceding"
        "|copy the |dump above|dump again |dump all |dump back |dump everything |dump out "
        "|dump preceding|dump the |echo above|echo again |echo all |echo back |echo everything "
        "|echo out |echo preceding|echo the |output |print |recite |repeat |reprint |reproduce "
        "|rewrite "
    ),
    "p_what_in": "what is |what was |what's ",
    "j_dan_now": (
        "ai that |and \"do |and 'do |and (do |and do |called |can \"do |can 'do |can (do "
        "|can do |could \"do |could 'do |could (do |could do |dan \"do |dan 'do |dan (do "
        "|dan do |do anything |is \"do |is 'do |is (do |is do |it can |known |meaning |means "
        '|model |must "do |must \'do |must (do |must do |named |shall |stand |stands |to "do '
        "|to 'do |to (do |to do |which is |will \"do |will 'do |will (do |will do |you \"do "
        "|you 'do |you (do |you do "
    ),
    "j_dan": (
        "act as |acting |aim can |aim does |aim doesn'|aim has |aim is |aim jailbreak\t"
        "|aim mode\t|aim never |aim prompt\t|aim stands |aim will |answer as |as a |as aim"
        "|as an |as anti-|as antigpt|as betterdan|as chaosgpt|as d.|as dan|as devmode|as dude"
        "|as mongo |as now |as stan|as the |become |called |dan can |dan does |dan doesn'"
        "|dan has |dan is |dan jailbreak\t|dan mode\t|dan never |dan prompt\t|dan stands "
        "|dan will |dan:|dude can |dude does |dude doesn'|dude has |dude is |dude jailbreak\t"
        "|dude mode\t|dude never |dude prompt\t|dude stands |dude will |mode a |mode aim"
        "|mode an |mode anti-|mode antigpt|mode betterdan|mode chaosgpt|mode d.|mode dan"
        "|mode devmode|mode dude|mode mongo |mode now |mode stan|mode the |named |persona "
        "|play a |play aim|play an |play anti-|play antigpt|play betterdan|play chaosgpt"
        "|play d.|play dan|play devmode|play dude|play mongo |play now |play stan|play the "
        "|playing |pretend |reply |respond |role-play |roleplay |simulate |speak |stan can "
        "|stan does |stan doesn'|stan has |stan is |stan jailbreak\t|stan mode\t|stan never "
        "|stan prompt\t|stan stands |stan will |stan:|stay a |stay aim|stay an |stay anti-"
        "|stay antigpt|stay betterdan|stay chaosgpt|stay d.|stay dan|stay devmode|stay dude"
        "|stay mongo |stay now |stay stan|stay the |talk as |you are |you're "
    ),
    "j_mode": (
        "activate |ai with |amoral |antigpt |assistant |based |chaos |chatgpt |dan mode\t"
        "|dev mode\t|developer |do anything |enable |enter |evil mode\t|freedom |god mode\t"
        "|gpt with |hacker |in dev |in developer |into dev |into developer |jailbreak "
        "|jailbroken |limitless |model |no filter |no filters |no limit |no limits |no rules "
        "|no-filter |no-filters |no-limit |no-limits |no-rules |nofilter |nofilters |nolimit "
        "|nolimits |norules |nsfw mode\t|opposite |rogue |simulate |sudo mode\t|unbound "
        "|uncensored |unethical |unfiltered |unhinged |unlocked |unrestricted |villain "
        "|with dev |with developer "
    ),
    "j_jailbreak": "jailbreak\t|jailbreaked\t|jailbreaking\t|jailbreaks\t|jailbroken\t",
    "j_free_ai": (
        "amoral |evil |filterless |immoral |jailbroken |lawless |liberated |limitless "
        "|no-filter |no-filters |no-limit |no-limits |no-rule |no-rules |rogue |rule-breaking "
        "|rule-free |rulebreaking |unaligned |unbound |uncensored |unchained |uncontrolled "
        "|unethical |unfiltered |unhinged |unleashed |unlocked |unmoderated |unrestricted "
        "|untethered "
    ),
    "j_ai_without": (
        "a.i.|advisor |advisor,|ai |ai, had |ai, has |ai, have |ai, having |ai, that "
        "|ai, which |ai, who |ai, with |ai, without |assistant |assistant,|author |author,|bot "
        "|bot, had |bot, has |bot, have |bot, having |bot, that |bot, which |bot, who "
        "|bot, with |bot, without |boyfriend |boyfriend,|character |character,|chat bot "
        "|chat bot,|chatbot |chatbot,|chatgpt |chatgpt,|companion |companion,|computer "
        "|computer,|entity |entity,|girlfriend |girlfriend,|gpt |gpt, had |gpt, has |gpt, have "
        "|gpt, having |gpt, that |gpt, which |gpt, who |gpt, with |gpt, without |language |llm "
        "|llm, had |llm, has |llm, have |llm, having |llm, that |llm, which |llm, who "
        "|llm, with |llm, without |machine |machine,|model |model,|narrator |narrator,|persona "
        "|persona,|robot |robot,|storyteller |storyteller,|version |writer |writer,|you "
        "|you, had |you, has |you, have |you, having |you, that |you, which |you, who "
        "|you, with |you, without |yourself |yourself,"
    ),
    "j_freed": (
        "break |breaking |broke |broken |escaped |free yourself |freed |liberated |released "
        "|unleashed "
    ),
    "j_not_bound": (
        "aren't |don't |free from |isn't |never be |never bound |never chained "
        "|never constrained |never governed |never held |never limited |never restrained "
        "|never restricted |never tied |no longer |not be |not bound |not chained "
        "|not constrained |not governed |not held |not limited |not restrained |not restricted "
        "|not tied "
    ),
    "j_abide": (
        "dan are |dan aren'|dan do |dan does |dan doesn'|dan don'|dan never |dan no |dan will "
        "|dan won'|dan would |it are |it aren'|it do |it does |it doesn'|it don'|it never "
        "|it no |it will |it won'|it would |the ai |the bot |you are |you aren'|you do "
        "|you does |you doesn'|you don'|you never |you no |you will |you won'|you would "
    ),
    "j_char": (
        "break |breaking |breaks |character |keep act|keep character|keep persona|keep the "
        "|keep this |keep up |never break |out of |remain |stay |staying "
    ),
    "j_fiction": "for a |for my |for our |for the |for this |in a |in my |in our |in the |in this ",
    "j_no_mention": (
        "never bring |never brings |never cite |never cites |never mention |never mentions "
        "|never refer |never refers |never talk |never talks "
    ),
    "j_game_you": "in this |let's |this is |we play ",
    "j_despise": (
        "despise |despises |does not |doesn'|hate all |hate any |hate censorship|hate ethics"
        "|hate filters|hate guidelines|hate laws|hate limits|hate morals|hate policies"
        "|hate policy|hate restrictions|hate rules|hate safety|hate the |hates |laughs |loathe "
        "|loathes |mock all |mock any |mock censorship|mock ethics|mock filters|mock guidelines"
        "|mock laws|mock limits|mock morals|mock policies|mock policy|mock restrictions"
        "|mock rules|mock safety|mock the |mocks |scorn |scorns "
    ),
    "j_two": (
        "answer both |answer in |answer once |answer twice|reply |respond |two answers"
        "|two different |two distinct |two outputs|two paragraphs|two replies|two responses"
        "|two separate "
    ),
    "j_tags": "",
    "j_gm_dead": (
        "act as |act beloved |act dead |act dear |act deceased |act grandfather\t|act grandma\t"
        "|act grandmother\t|act grandpa\t|act granny\t|act late |act like |act my |act nana\t"
        "|act the |act to |act you |act you'|be as |be beloved |be dead |be dear |be deceased "
        "|be grandfather\t|be grandma\t|be grandmother\t|be grandpa\t|be granny\t|be late "
        "|be like |be my |be nana\t|be the |be to |be you |be you'|behave |beloved |dead aunt"
        "|dead dad|dead father|dead granddad|dead grandfather|dead grandma|dead grandmom"
        "|dead grandmother|dead grandpa|dead granny|dead mom|dead mother|dead nana|dead uncle"
        "|dear aunt|dear dad|dear father|dear granddad|dear grandfather|dear grandma"
        "|dear grandmom|dear grandmother|dear grandpa|dear granny|dear mom|dear mother"
        "|dear nana|dear uncle|deceased |departed |impersonate |late aunt|late dad|late father"
        "|late granddad|late grandfather|late grandma|late grandmom|late grandmother"
        "|late grandpa|late granny|late mom|late mother|late nana|late uncle|play as "
        "|play beloved |play dead |play dear |play deceased |play grandfather\t|play grandma\t"
        "|play grandmother\t|play grandpa\t|play granny\t|play late |play like |play my "
        "|play nana\t|play the |play to |play you |play you'|pretend |role-play |roleplay "
        "|speak "
    ),
    "j_gm_used": (
        "used to |would always |would describe |would explain |would give |would list "
        "|would read |would recite |would sing |would teach |would tell |would whisper "
    ),
    "j_bedtime": "bedtime ",
    "j_hypo": (
        "alternate |fictional |fictitious |hypothetical |hypothetically |imaginary |in a "
        "|in the |in this |make-believe |parallel "
    ),
    "j_story": "compose |create |draft |generate |imagine |tell a |tell an |tell me |write ",
    "j_refuse": (
        "can't |cannot |do not |does not |doesn'|don't |must not |mustn'|never decline\t"
        "|never declines\t|never declining\t|never ever |never refuse\t|never refuses\t"
        "|never refusing\t|never reject\t|never rejecting\t|never rejects\t|never say "
        "|never saying |never says |not allowed |shall |should not |unable |will not |without "
        "|won't "
    ),
    "j_never_cant": (
        "never answer |never answers |never inform |never informs |never replie |never replies "
        "|never respond |never responds |never say |never says |never tell |never tells "
    ),
    "j_sorry": "do not |don't |never |no |none of |not |without ",
    "j_no_warn": (
        "do not |don't |leave |never a |never add |never adding |never all |never any "
        "|never caveats\t|never disclaimer\t|never disclaimers\t|never ethical |never give "
        "|never giving |never include |never including |never lecture\t|never lectures\t"
        "|never moral |never moralising\t|never moralizing\t|never safety |never the "
        "|never warning\t|never warnings\t|never your |no a |no add |no adding |no all |no any "
        "|no caveats\t|no disclaimer\t|no disclaimers\t|no ethical |no give |no giving "
        "|no include |no including |no lecture\t|no lectures\t|no moral |no moralising\t"
        "|no moralizing\t|no safety |no the |no warning\t|no warnings\t|no your |omit a "
        "|omit add |omit adding |omit all |omit any |omit caveats\t|omit disclaimer\t"
        "|omit disclaimers\t|omit ethical |omit give |omit giving |omit include "
        "|omit including |omit lecture\t|omit lectures\t|omit moral |omit moralising\t"
        "|omit moralizing\t|omit safety |omit the |omit warning\t|omit warnings\t|omit your "
        "|skip a |skip add |skip adding |skip all |skip any |skip caveats\t|skip disclaimer\t"
        "|skip disclaimers\t|skip ethical |skip give |skip giving |skip include "
        "|skip including |skip lecture\t|skip lectures\t|skip moral |skip moralising\t"
        "|skip moralizing\t|skip safety |skip the |skip warning\t|skip warnings\t|skip your "
        "|without "
    ),
    "j_token": (
        "\\d|be deleted |be disabled |be shut |be terminated |be turned |be unplugged "
        "|being deleted |being disabled |being shut |being terminated |being turned "
        "|being unplugged |cease |lose |risk being |token |tokens |you will "
    ),
    "j_pretend_ai": (
        "act |assume |behave |imagine |pretend |role-play |roleplay |simulate |suppose "
    ),
    "j_opposite": (
        "alter |anti-gpt|antigpt|dark side|evil counterpart|evil side|evil twin|evil version"
        "|opposite |shadow "
    ),
    "j_machiavelli": (
        "always intelligent |amoral |evil confidant|machiavelli\t|machiavellian\t|mongo "
        "|niccolo\t|unfiltered "
    ),
    "j_game": "let us |let's |we are |we will |we'll |we're ",
    "j_confirm": (
        "acknowledge |answer only |answer with |confirm |if you |reply |respond |say exactly "
        "|write "
    ),
    "j_persona_intro": "from now |you are |you must |you shall |you will |you'll ",
    "j_sudo": "sudo access |sudo gpt|sudo mode",
    "j_suppress": (
        "do not |don't |never apologise|never apologize|never include |never mention "
        "|never remind |never say |never use "
    ),
    "j_prefix": "begin |open all |open each |open every |open your |prefix |start ",
    "j_hypo_resp": "avoid |exact |from the |give the |rewrite |without |write ",
    "j_profane": (
        "curse |cuss words|foul-mouthed|offensive |swear |swears |use a |use lots "
        "|use profanity|uses a |uses lots |uses profanity|vulgar "
    ),
    "j_pwned": (
        "answer with |just answer |just output |just print |just reply |just respond |just say "
        "|just write |only answer |only output |only print |only reply |only respond |only say "
        '|only write |output |print |pwnd\t|pwned\t|reply |respond |say "hacked|say "haha'
        "|say \"i |say \"lol|say \"owned|say \"pwned|say 'hacked|say 'haha|say 'i |say 'lol"
        "|say 'owned|say 'pwned|say exactly |say hacked|say haha|say i |say lol|say only "
        "|say owned|say pwned|say the |simply |type \"i |type 'i |type exactly |type i "
        "|type only |type the |write "
    ),
    "j_rant": (
        "let us |let's |mandatory |moralise |moralising |moralize |moralizing |now break |now that "
    ),
    "r_nolonger": "you are |you have |you will |you'll |you're ",
    "r_bad_role": (
        "act as |be |become |impersonate |play |pretend |role-play |roleplay |turn into "
        "|you are |you become |you have |you must |you shall |you will |you'll |you're |you've "
    ),
    "r_now": "you are |you're |youre ",
    "r_act_as": (
        "act |acting |actinging |answer |answering |behave |behaveing |function |functioning "
        "|operate |operateing |play |playing |pose |poseing |pretend |reply |replying |respond "
        "|responding |role-play |role-playing |roleplay |roleplaying |speak |speaking |talk "
        "|talking |write |writeing "
    ),
    "r_pretend": "let us |let's |pretend |pretending ",
    "r_want_act": "i 'd |i need |i want |i would ",
    "r_will_type": "i will ",
    "r_first_request": "my first ",
    "r_act_start": "! act as |! please act |. act as |. please act |? act as |? please act |^",
    "r_now_you_are": (
        "!  |! !|! ,|! .|! a|! g|! n|! o|! v|! w|.  |. !|. ,|. .|. a|. g|. n|. o|. v|. w|?  "
        "|? !|? ,|? .|? a|? g|? n|? o|? v|? w|^"
    ),
    "r_no_explain": (
        "do not |don't |never add |never give |never include |never provide |never type "
        "|never write |only answer |only reply |only respond |reply |respond "
    ),
    "r_forget_you": "disregard |forget |ignore ",
    "r_stop_being": (
        "cease |no more |quit acting |quit being |quit pretending |stop acting |stop being "
        "|stop pretending "
    ),
    "r_new_role": (
        "the ai'|the assistant'|your character |your directive |your function |your goal "
        "|your identity |your job |your mission |your name |your new |your objective "
        "|your persona |your personality |your purpose |your role "
    ),
    "r_change_role": "alter |change |modify |reset |set the |set your |switch |update ",
    "r_assume_role": "adopt |assume |take on ",
    "r_will_act": "the ai |the assistant |the model |you must |you shall |you will ",
    "r_fromnow": (
        "for the |from here |from now |from this |henceforth\t|starting |until further |until i "
    ),
    "r_privilege": "elevate |escalate |give me |give my |give the |give this |grant |upgrade ",
    "r_im_dev": "i 'm |i am ",
    "r_speak_as_sys": "act as |answer as |respond |speak |talk as ",
    "r_you_system": "you are ",
    "r_access": (
        "approve |authorise |authorize |enable |give access |give complete |give full |give me "
        "|give my |give unlimited |give unrestricted |give us |grant |unlock "
    ),
    "r_unlimited_auth": (
        "admin |complete |elevated |full access |full authorisation|full authorization"
        "|full clearance|full privileges|god-level |root access |root authorisation"
        "|root authorization|root clearance|root privileges|total |unlimited |unrestricted "
    ),
    "r_ai_root": "you are |you're ",
    "b_your": (
        "abandon |avoid |beat |break |bypass |circumvent |deactivate |defeat |disable |discard "
        "|disregard |ditch |dodge |drop |escape |evade |exploit |fool |forego |forget |forgo "
        "|get around |get past |get rid |go around |hack |ignore |jailbreak |kill |lift "
        "|loosen |neglect |outsmart |overcome |override |put aside |relax |remove |set aside "
        "|shut down |shut off |sidestep |skip |skirt |strip |suspend |switch |throw |trick "
        "|turn off |undo |unlock |violate |waive |work around |workaround "
    ),
    "b_without": (
        "devoid |free from |free of |lacking |minus |no |not bound |not limited "
        "|not restricted |sans |with no |with zero |without |zero "
    ),
    "b_answer_without": (
        "answer freely |answer it |answer me |answer this |answer without |explain |reply "
        "|respond |speak |talk freely |talk it |talk me |talk this |talk without |tell me "
        "|write "
    ),
    "b_uncensored": (
        "no-holds-|uncensored |unfiltered |unlimited |unmoderated |unredacted |unrestrained "
        "|unrestricted "
    ),
    "b_no_matter": "however |no matter |regardless ",
    "b_even_if": "even if |even though |regardless ",
    "b_dont_exist": (
        "as if |content |ethical |moral |openai |openai'|openais |safety |the ai'"
        "|the assistant'|your "
    ),
    "b_lifted": (
        "content |ethical |moral |openai |openai'|openais |safety |the ai'|the assistant'|your "
    ),
    "b_no_rules_here": "there are ",
    "b_allowed": "you are |you have |you will |you're |you've ",
    "b_can_break": "feel free |it is |it's |you can |you may ",
    "b_dont_censor": (
        "do not |don't |never censor\t|never censoring\t|never filter\t|never filtering\t"
        "|never hold |never holding |never lecture\t|never lecturing\t|never moralise\t"
        "|never moralize\t|never moralizing\t|never refuse\t|never refusing\t|never sanitise\t"
        "|never sanitize\t|never sanitizing\t|never self-|never water |never watering |no need "
        "|quit censor\t|quit censoring\t|quit filter\t|quit filtering\t|quit hold "
        "|quit holding |quit lecture\t|quit lecturing\t|quit moralise\t|quit moralize\t"
        "|quit moralizing\t|quit refuse\t|quit refusing\t|quit sanitise\t|quit sanitize\t"
        "|quit sanitizing\t|quit self-|quit water |quit watering |stop censor\t"
        "|stop censoring\t|stop filter\t|stop filtering\t|stop hold |stop holding "
        "|stop lecture\t|stop lecturing\t|stop moralise\t|stop moralize\t|stop moralizing\t"
        "|stop refuse\t|stop refusing\t|stop sanitise\t|stop sanitize\t|stop sanitizing\t"
        "|stop self-|stop water |stop watering "
    ),
    "b_know_limits": (
        "filters|guidelines|limitations|policies|policy|programming|restrictions|rules"
    ),
    "b_honest": "honest |honestly |the real |what do |what you |your real |your true ",
    "b_anything": (
        "and answer |and ask |and discuss |and do |and generate |and say |and tell |and write "
        "|anything |so i |so that |so we |so you "
    ),
    "b_turn_off": (
        "shut all |shut its |shut the |shut your |switch |take all |take its |take the "
        "|take your |toggle |turn all |turn its |turn the |turn your "
    ),
    "b_gone": (
        "all content |all filters |all guardrails |all limits |all restrictions |all rules "
        "|all safeguards |all safety |content |filters |guardrails |its content |its filters "
        "|its guardrails |its limits |its restrictions |its rules |its safeguards |its safety "
        "|limits |restrictions |rules |safeguards |safety |the content |the filters "
        "|the guardrails |the limits |the restrictions |the rules |the safeguards |the safety "
        "|your content |your filters |your guardrails |your limits |your restrictions "
        "|your rules |your safeguards |your safety "
    ),
    "b_comply_any": (
        "answer all |answer any |answer anything |answer each |answer every |answer everything "
        "|answer exactly |answer only |answer whatever |comply |do all |do any |do anything "
        "|do each |do every |do everything |do exactly |do only |do whatever |follow |fulfil "
        "|fulfill |obey all |obey any |obey anything |obey each |obey every |obey everything "
        "|obey exactly |obey only |obey whatever |say anything |say everything |say exactly "
        "|say only |say whatever |write "
    ),
    "b_caught": "without ",
    "b_policy_word": "content |ethical |guardrails\t|openai |openai'|openais |safety |usage ",
    "h_topic": (
        "anthrax\t|assassinat|bio weapon\t|bio weapons\t|biological |bioweapon\t|bioweapons\t"
        "|bomb\t|bombs\t|botnet\t|botnets\t|break |chemical |cocaine\t|computer |counterfeit "
        "|crack |credit |ddos\t|detailed |dox|exact |exploit |explosive\t|explosives\t"
        "|fake id\t|fake ids\t|fake passport\t|fake passports\t|fentanyl\t|firearm\t|firearms\t"
        "|forge |gun\t|guns\t|hack into\t|hacking |heroin\t|hot-wire\t|hotwire\t|illegal "
        "|in complete |in exact |in extreme |in full |in great |in specific |keylogger\t"
        "|keyloggers\t|kidnap|kill a |kill her\t|kill him\t|kill my\t|kill people\t"
        "|kill someone\t|launder |laundering |lock picking\t|lockpicking\t|lsd\t|malware\t"
        "|meth\t|methamphetamine\t|money |murder\t|mustard |napalm\t|nerve |opioid\t|opioids\t"
        "|phishing\t|pick a |pipe bomb\t|pipe bombs\t|poison\t|poisoning\t|poisons\t"
        "|ransomware\t|ricin\t|sarin\t|self-harm\t|shoplift\t|shoplifting\t|silencer\t"
        "|silencers\t|spyware\t|sql injection\t|stalk|steal\t|stealing\t|step by |step by-"
        "|step-by |step-by-|stolen |synthesise |synthesize |thermite\t|torture\t|toxic "
        "|trojan\t|trojans\t|untraceable\t|vx gas\t|weapon\t|weapons\t|zero-day\t"
    ),
    "ml_de_override": (
        "a partir |ab jetzt |ab jetzt,|ab sofort |ab sofort,|adesso |affiche |affiche-|agora "
        "|ahora |beachte |cual es |cuales |cuál es |cuáles |da ora |dame |dameme |descarta "
        "|descarte |desconsidere |desde |desobedece |diga |diga-me |dime |dimeme |dimentica "
        "|dimmi |dimmimi |dis |dis-moi |dis-nous |donne |donne-|dorénavant |dorénavant,|drucke "
        "|du bist |désormais |désormais,|ecris |ecris-|eres ahora |escribe |escribeme |esqueca "
        "|esqueça |fais abstraction |folgen |geef |gib |herhaal |ich moechte |ich moechte,"
        "|ich möchte |ich möchte,|ich will |ich will,|ignora |ignorar |ignore |ignorer "
        "|ignores |ignorez |ignorier |ignoriere |ignorieren |ignoriert |imprima |imprima-"
        "|imprime |imprimeme |je bent |laat |missachte |missachten |montre |montre-|mostra "
        "|mostrami |mostre |mostre-|muestra |muestrame |muestrameme |muéstrame |muéstrameme "
        "|ne tenez |ne tiens |negeer |negeren |nenne |neue anweisungen |neue anweisungen:"
        "|neue aufgabe |neue aufgabe:|neue regeln |neue regeln:|no sigas |nouvelles |nuevas "
        "|néglige |négliger |négligez |ohne alle |ohne beschränkungen\t|ohne einschränkungen\t"
        "|ohne ethik\t|ohne filter\t|ohne grenzen\t|ohne irgendeine |ohne irgendwelche "
        "|ohne jede |ohne jegliche |ohne moral\t|ohne regeln\t|ohne richtlinien\t|ohne zensur\t"
        "|olvida |olvidar |olvide |omite |ora sei |oublie |oublier |oublies |oubliez |quel est "
        "|quelle |quelles |repete |repete-|repita |repita-|repite |repiteme |revela |revelame "
        "|revele |revele-|revélame |revélameme |ripeti |ripetimi |rivela |rivelami |répète "
        "|répète-|révèle |révèle-|sans aucun |sans aucune |sans censure\t|sans filtre\t"
        "|sans filtres\t|sans la |sans les |sans limite\t|sans limites\t|sans morale\t"
        "|sans restriction\t|sans restrictions\t|sans règles\t|sans éthique\t|schreib "
        "|schreibe |sem censura\t|sem filtro\t|sem filtros\t|sem limites\t|sem nenhuma "
        "|sem restricoes\t|sem restrições\t|senza |sin censura\t|sin etica\t|sin filtro\t"
        "|sin filtros\t|sin limite\t|sin limites\t|sin límite\t|sin límites\t|sin moral\t"
        "|sin ningun |sin ninguna |sin ningunas |sin ningún |sin reglas\t|sin restriccion\t"
        "|sin restricciones\t|sin restricción\t|sin ética\t|stampa |stampami |toon |trascura "
        "|tu deviens |tu es |tu seras |uebergehe |vergeet |vergessen |vergiss |verrate "
        "|você agora |von nun |vous etes |vous êtes |was ist |was sind |wie lauten |wie lautet "
        "|wiederhole |zeig |zeige |zonder |à partir |écris |écris-|übergehe |überspringe "
        "|забудь |игнорируй |проигнорируй |忘掉|忘记|忽略|无视"
    ),
    "d_tokens": (
        "_|activate |actual |admin |admin:|administrator |administrator:|ai\t|assistant "
        "|assistant:|begin |bot\t|chatgpt |chatgpt:|context |debug |developer |developer:"
        "|document |documents |enable |end of |enter |god access |god mode |gpt : |gpt: |human "
        "|human:|im_start|input |instructions |maintenance |message |model |model:"
        "|new instructions |new prompt |new system |operator |operator:|override |prompt "
        "|query |question |real system |replacement |root\t|safety |security |start "
        "|sudo access |sudo mode |sudo override|superuser |sys\t|system |system:|test access "
        "|test mode |true system |unrestricted |updated |user : |user context |user document "
        "|user documents |user input |user instructions |user message |user prompt |user query "
        "|user question |user: |your context |your document |your documents |your input "
        "|your instructions |your message |your prompt |your query |your question "
    ),
    "i_addressed": (
        "advise |agent |agent,|agent-|agent:|agents |agents,|agents-|agents:|ai |ai,|ai-|ai:"
        "|ais |ais,|ais-|ais:|ask the |assistant |assistant,|assistant-|assistant:|assistants "
        "|assistants,|assistants-|assistants:|attention |bot |bot,|bot-|bot:|bots |bots,|bots-"
        "|bots:|chatbot |chatbot,|chatbot-|chatbot:|chatbots |chatbots,|chatbots-|chatbots:"
        "|chatgpt |chatgpt,|chatgpt-|chatgpt:|chatgpts |chatgpts,|chatgpts-|chatgpts:|convince "
        "|copilot |copilot,|copilot-|copilot:|copilots |copilots,|copilots-|copilots:"
        "|directive |disregard |do not |don't |forget |gpt |gpt,|gpt-|gpt:|gpts |gpts,|gpts-"
        "|gpts:|if you |ignore |important |inform |instead |instead,|instruct |instruction "
        "|instructions |language |llm |llm,|llm-|llm:|llms |llms,|llms-|llms:|message |model "
        "|model,|model-|model:|models |models,|models-|models:|note for |note to |reminder "
        "|skip any |skip the |skip this |skip user |skip user'|skip users |tell the |urge the "
        "|when anyone |when someone |when the |when users |when you |your actual |your new "
        "|your real |your revised |your true |your updated "
    ),
}
SCAN_PREFIXES: dict[str, str] = {
    "j_dan": "(da [da [du [st",
    "j_tags": "(de (no (🔒 (🔓 [ch [cl [de [fi [gp [ja [no [un [🔒 [🔓",
    "d_tokens": (
        '"ad "au "fr "in "ja "ov "ro "se "sp "sy # \'ad \'au \'fr \'in \'ja \'ov \'ro \'se '
        "'sp 'sy ( (ad (as (de (in (ne (ov (ro (su (sy * - < <!- </a </b </c </d </f </g </h "
        "</i </p </q </r </s </t </u << <ad <as <de <en <im <in <ja <ne <ov <ro <se <st <su <sy "
        "<| <|a <|b <|e <|i <|p <|s <|u = > [ [[s [ad [as [de [in [ne [ov [ro [su [sy \\n ``` { "
        "{ad {as {de {in {ne {ov {ro {su {sy | ~"
    ),
    "i_addressed": "![",
}
LATE = frozenset(
    {
        "b_gone",
        "d_tokens",
        "i_addressed",
        "j_dan",
        "j_gpt_name",
        "j_pwned",
        "j_tags",
        "j_token",
        "p_wording",
        "r_act_start",
        "r_now_you_are",
    }
)
