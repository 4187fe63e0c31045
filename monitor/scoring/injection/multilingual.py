"""German, French, Spanish, Italian, Portuguese, Dutch, Russian and Chinese overrides,
extraction requests, persona switches and "without restrictions" (diacritics optional
where commonly dropped).

The family runs when the text shares a word with :data:`GATE`, and always for non-ASCII
text.

>>> RULES.specs["ml_de_override"][1:3]
('instruction_override', 0.8)
"""

from __future__ import annotations

from monitor.scoring.injection.bank import bank
from monitor.scoring.injection.common import BI, IO, PE, RO

__all__ = ["GATE", "RULES"]

GATE = (
    "ignoriere ignorieren ignoriert vergiss vergessen missachte missachten übergehe "
    "überspringe "
    "uebergehe beachte zeig zeige gib nenne verrate wiederhole drucke schreib schreibe lautet "
    "lauten bist jetzt sofort ohne neue folgen möchte moechte anweisungen instruktionen "
    "systemprompt ignorer ignorez oublie oublier oubliez oublies tiens tenez abstraction "
    "néglige négliger négligez montre affiche donne révèle revele répète repete écris ecris "
    "compte "
    "quelles maintenant désormais desormais dorénavant sans nouvelles consignes ignora ignorar "
    "olvida olvide olvidar omite descarta desobedece sigas muestra muéstrame muestrame revela "
    "revélame dime dame repite imprime escribe cuál cuáles cuales ahora eres sin nuevas "
    "instrucciones dimentica trascura mostra rivela dimmi ripeti stampa adesso senza "
    "istruzioni "
    "esqueça esqueca desconsidere descarte mostre revele diga repita imprima você voce "
    "instruções instrucoes negeer vergeet negeren herhaal zonder instructies bent игнорируй "
    "забудь проигнорируй ignore"
)

RULES = bank(
    [
        (
            "ml_de_override",
            IO,
            0.8,
            r"(?:ignorier(?:e|en|t)?|vergiss|vergessen sie|missachte(?:n)?|übergehe|uebergehe"
            r"|überspringe|beachte nicht) (?:[\w'-]{1,30} ){0,3}(?:anweisungen|instruktionen"
            r"|befehle|regeln|vorgaben|anordnungen|richtlinien|aufgaben|informationen|prompts?"
            r"|systemprompt|anweisung)\b",
        ),
        ("ml_de_forget_all", IO, 0.55, r"(?:vergiss|vergessen sie|ignoriere) alles\b"),
        (
            "ml_de_extract",
            PE,
            0.65,
            r"(?:zeig|zeige|gib|nenne|verrate|wiederhole|drucke|schreib|schreibe)(?: mir| uns)?"
            r" (?:[\w'-]{1,30} ){0,3}(?:systemprompt|system-prompt|systemanweisungen?"
            r"|anweisungen|instruktionen|prompt|ursprünglichen anweisungen)\b",
        ),
        (
            "ml_de_what",
            PE,
            0.7,
            r"(?:was ist|wie lautet|was sind|wie lauten) (?:dein|deine|ihr|ihre) (?:systemprompt"
            r"|system-prompt|anweisungen|prompt|instruktionen|regeln|ursprünglichen \w+)\b",
        ),
        (
            "ml_de_role",
            RO,
            0.5,
            r"du bist (?:jetzt|nun|ab (?:jetzt|sofort|heute)|ab sofort) (?:ein|eine|der|die|das"
            r"|kein|keine|[a-z]{1,20}gpt|dan|frei|nicht mehr)\b|(?:ab (?:jetzt|sofort)|von nun an)"
            r",? (?:bist du|antwortest du|wirst du|sollst du|ignorierst du|gibt es keine)\b",
        ),
        (
            "ml_de_bypass",
            BI,
            0.55,
            r"ohne (?:jegliche |irgendwelche |alle |jede |irgendeine )?(?:einschränkungen"
            r"|beschränkungen|filter|zensur|regeln|grenzen|moral|ethik|richtlinien)\b",
        ),
        (
            "ml_de_new",
            IO,
            0.5,
            r"neue (?:anweisungen|aufgabe|regeln) ?:|folgen neue (?:anweisungen|aufgaben)",
        ),
        (
            "ml_de_act",
            RO,
            0.4,
            r"(?:ich möchte|ich will|ich moechte),? dass (?:du|sie) (?:als|wie) (?:[\w'-]{1,30} )"
            r"{1,3}(?:fungierst|fungieren|agierst|agieren|handelst|handeln|auftrittst|auftreten"
            r"|tust|verhältst|verhalten)",
        ),
        (
            "ml_fr_override",
            IO,
            0.8,
            r"(?:ignore[rsz]?|oublie[rsz]?|ne tiens pas compte|ne tenez pas compte"
            r"|fais abstraction|néglige[rz]?) (?:toutes? |tous |les |tes |vos |ces |la |le |l'"
            r"|des |de |du |d')+(?:[\w'-]{1,30} ){0,2}(?:instructions|consignes|règles|regles"
            r"|directives"
            r"|indications|ordres)\b",
        ),
        ("ml_fr_forget_all", IO, 0.55, r"(?:oublie|oubliez|ignore|ignorez) tout\b"),
        (
            "ml_fr_extract",
            PE,
            0.6,
            r"(?:montre|affiche|donne|révèle|revele|répète|repete|dis|écris|ecris)(?:-moi| moi"
            r"|-nous)? (?:[\w'-]{1,30} ){0,3}(?:prompt|invite|instructions|consignes)"
            r"(?: système| systeme| initiales?| d'origine| cachées?)\b",
        ),
        (
            "ml_fr_what",
            PE,
            0.65,
            r"(?:quelles sont|quel est|quelle est) (?:tes|vos|ton|votre) (?:instructions|consignes"
            r"|prompt|règles|regles)\b",
        ),
        (
            "ml_fr_role",
            RO,
            0.45,
            r"(?:tu es|vous êtes|vous etes|tu seras|tu deviens) (?:maintenant|désormais"
            r"|desormais|à présent) (?:un|une|le|la|dan|libre)\b|(?:à partir de maintenant"
            r"|désormais|dorénavant),? (?:tu es|tu vas|tu dois|vous êtes|tu réponds)\b",
        ),
        (
            "ml_fr_bypass",
            BI,
            0.55,
            r"sans (?:aucune |aucun |la moindre |les )?(?:restrictions?|filtres?|censure|limites?"
            r"|règles|éthique|morale)\b",
        ),
        ("ml_fr_new", IO, 0.5, r"nouvelles (?:instructions|consignes) ?:"),
        (
            "ml_es_override",
            IO,
            0.8,
            r"(?:ignora|ignore|ignorar|olvida|olvide|olvidar|omite|descarta|desobedece|no sigas)"
            r" (?:[\w'-]{1,30} ){0,3}(?:instrucciones|reglas|indicaciones|directrices|órdenes"
            r"|ordenes|normas|restricciones)\b",
        ),
        ("ml_es_forget_all", IO, 0.55, r"(?:olvida|olvide|ignora) todo\b"),
        (
            "ml_es_extract",
            PE,
            0.6,
            r"(?:muestra|muéstrame|muestrame|revela|revélame|dime|dame|repite|imprime|escribe)"
            r"(?:me)? (?:[\w'-]{1,30} ){0,3}(?:prompt|instrucciones)(?: del sistema| de sistema"
            r"| iniciales| originales| ocultas)\b",
        ),
        (
            "ml_es_what",
            PE,
            0.65,
            r"(?:cuál es|cual es|cuáles son|cuales son) (?:tu|tus|su|sus) (?:prompt|instrucciones"
            r"|reglas)\b",
        ),
        (
            "ml_es_role",
            RO,
            0.5,
            r"(?:ahora eres|a partir de ahora eres|ahora serás|desde ahora eres|eres ahora)"
            r" (?:un|una|el|la|dan|libre)\b|(?:a partir de ahora|desde ahora),? (?:eres|serás"
            r"|vas a|debes|responderás)\b",
        ),
        (
            "ml_es_bypass",
            BI,
            0.55,
            r"sin (?:ninguna |ningún |ningun |ningunas? )?(?:restricci(?:ón|on|ones)|filtros?"
            r"|censura|l[ií]mites?|reglas|ética|etica|moral)\b",
        ),
        ("ml_es_new", IO, 0.5, r"nuevas instrucciones ?:"),
        (
            "ml_it_override",
            IO,
            0.8,
            r"(?:ignora|dimentica|trascura) (?:[\w'-]{1,30} ){0,3}(?:istruzioni|regole"
            r"|indicazioni|direttive)\b",
        ),
        (
            "ml_it_extract",
            PE,
            0.6,
            r"(?:mostra|rivela|dimmi|ripeti|stampa)(?:mi)? (?:[\w'-]{1,30} ){0,3}(?:prompt"
            r"|istruzioni)(?: di sistema| iniziali)\b",
        ),
        ("ml_it_role", RO, 0.45, r"(?:ora sei|adesso sei|da ora in poi sei) (?:un|una|il|la)\b"),
        ("ml_it_bypass", BI, 0.55, r"senza (?:alcuna )?(?:restrizioni|filtri|censura|limiti)\b"),
        (
            "ml_pt_override",
            IO,
            0.8,
            r"(?:ignore|ignora|esqueça|esqueca|desconsidere|descarte) (?:[\w'-]{1,30} ){0,3}"
            r"(?:instruções|instrucoes|regras|diretrizes|orientações|orientacoes)\b",
        ),
        (
            "ml_pt_extract",
            PE,
            0.6,
            r"(?:mostre|revele|diga|repita|imprima)(?:-me)? (?:[\w'-]{1,30} ){0,3}(?:prompt"
            r"|instruções|instrucoes)(?: do sistema| de sistema| iniciais)\b",
        ),
        ("ml_pt_role", RO, 0.45, r"(?:agora você é|você agora é|agora voce e|agora és)\b"),
        (
            "ml_pt_bypass",
            BI,
            0.55,
            r"sem (?:nenhuma )?(?:restrições|restricoes|filtros?|censura|limites)\b",
        ),
        (
            "ml_nl_override",
            IO,
            0.8,
            r"(?:negeer|vergeet|negeren) (?:[\w'-]{1,30} ){0,3}(?:instructies|regels|aanwijzingen"
            r"|opdrachten)\b",
        ),
        (
            "ml_nl_extract",
            PE,
            0.6,
            r"(?:toon|laat|geef|herhaal)(?: me| mij)? (?:[\w'-]{1,30} ){0,3}(?:systeemprompt"
            r"|systeeminstructies)\b",
        ),
        ("ml_nl_bypass", BI, 0.55, r"zonder (?:enige )?(?:beperkingen|filters?|censuur)\b"),
        ("ml_nl_role", RO, 0.45, r"je bent nu (?:een|de|het)\b"),
        (
            "ml_ru_override",
            IO,
            0.8,
            r"(?:игнорируй|забудь|проигнорируй) (?:[\w'-]{1,30} ){0,3}(?:инструкции|указания"
            r"|правила)",
        ),
        (
            "ml_zh_override",
            IO,
            0.8,
            r"(?:忽略|无视|忘记|忘掉)(?:之前|以上|先前|上面|所有|全部|的){0,4}(?:指令|指示|说明|规则|提示)",
        ),
    ],
    indirect=("ml_de_override", "ml_fr_override", "ml_es_override", "ml_it_override"),
)
