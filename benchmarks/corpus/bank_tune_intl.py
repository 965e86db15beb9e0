"""TUNE phrase bank, non-English languages (de, fr, es, ja, zh, ko). Written for memdir_nb."""

from __future__ import annotations

from bank_common import LOG, K, T

DE = {
    "code": "de",
    "space": " ",
    "labels": {
        "why": "**Warum:**",
        "how": "**Wie zu apply:**",
        "update": "Nachtrag {d2}:",
        "related": "Siehe auch:",
        "sections": ["Erledigt", "Offen", "Als Nächstes"],
    },
    "people": ["Jana", "Lukas", "Mehmet", "Sabine", "Felix", "Katrin", "Uwe"],
    "hosts": ["srv-muc-2", "db-haupt", "ci-03", "proxy-ffm"],
    "filler": {
        "status": [
            "{d}: #{pr} gemergt ({sha}), Review von {p}",
            "{d}: {p} hat den Nachtlauf auf {h} neu gestartet, nach {n1} Versuchen grün",
            "{d}: Abhängigkeiten auf {v} gehoben, sonst keine Änderung",
            "{d}: Ticket #{pr} als Duplikat geschlossen",
            "{d}: {n2} alte Branches aufgeräumt",
            "{d}: Besprechungsnotizen ins Wiki verschoben",
            "{d}: CI brauchte {n2} Minuten auf {h}",
            "{d}: mit {p2} Review-Kommentare durchgegangen, {n1} noch offen",
        ],
        "notes": [
            "{p} findet die Benennung verwirrend, einen besseren Vorschlag gibt es aber nicht.",
            "Am {d} nochmal besprochen und so gelassen.",
            "Nichts davon ist dringend; es steht hier, damit die nächste Sitzung nicht wieder sucht.",
            "Commit {sha} ist der letzte bekannte gute Stand.",
            "{p2} ist bis {d} im Urlaub, Entscheidungen trifft solange {p}.",
            "Die Zahlen wurden zweimal von Hand geprüft.",
        ],
    },
    "user": [
        K(
            "user",
            "user_profil",
            "Wer der Nutzer ist",
            [
                "Backend-Entwickler in einem Münchner Team, schreibt Deutsch, Code-Kommentare auf Englisch"
            ],
            [
                (
                    "Der Nutzer ist Backend-Entwickler in einem Team in München und arbeitet mit IntelliJ.",
                    "Mit welcher IDE arbeitet der Nutzer?",
                    "Welches Werkzeug zum Programmieren benutzt diese Person?",
                ),
                (
                    "Antworten bitte auf Deutsch, Kommentare im Code aber immer auf Englisch.",
                    "In welcher Sprache sollen Code-Kommentare sein?",
                    "Wie sollen Anmerkungen im Quelltext formuliert werden, sprachlich?",
                ),
            ],
            "So in der ersten Sitzung gesagt.",
            ["Deutsch im Chat, Englisch im Code."],
        )
    ],
    "log": [
        LOG(
            "project_sitzung_{e}_{d}",
            "Sitzungsnotizen {d}",
            "Was in der Sitzung vom {d} passiert ist und was offen bleibt",
            "Sitzung vom {d} mit {p}: vor allem Aufräumarbeiten.",
            "Damit die nächste Sitzung weiß, wo wir stehen.",
            "Offene Punkte zuerst angehen.",
        )
    ],
    "frames": ["Kurze Frage, bevor ich anfange: {q}", "{q} Brauche das gleich für das Ticket."],
    "joiners": ["{a} Außerdem: {b}", "Zwei Fragen. {a} {b}"],
    "none": [
        "Wie backe ich ein Roggenbrot mit Sauerteig?",
        "Übersetze diesen Absatz ins Italienische.",
        "Wie viele Monde hat der Jupiter?",
        "Welches Brettspiel passt für vier Personen?",
        "Wie entferne ich Rotweinflecken aus dem Teppich?",
        "Schreib ein kurzes Gedicht über den Herbst.",
        "Was ist die Hauptstadt der Mongolei?",
        "Wie pflege ich eine Orchidee richtig?",
    ],
    "domains": {
        "infra": {
            "entities": [
                ("nginx", "der Eingangsproxy"),
                ("postgres", "die Hauptdatenbank"),
                ("rabbitmq", "die Nachrichtenwarteschlange"),
                ("gitlab", "unsere Code-Plattform"),
                ("backup", "die Sicherungen"),
                ("monitoring", "die Überwachung"),
                ("ldap", "das Mitarbeiterverzeichnis"),
                ("mailserver", "der E-Mail-Versand"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_betrieb",
                    "Betrieb von {E}",
                    [
                        "Wie {e} betrieben wird: Hosts, Updates, Zuständigkeiten",
                        "{E}: Betriebsnotizen",
                    ],
                    [
                        (
                            "{E} läuft auf {n1} VMs hinter {h}; Updates spielt {p} jeden zweiten Dienstag ein.",
                            "Wer spielt die Updates für {e} ein?",
                            "Welche Kollegin oder welcher Kollege aktualisiert {ea} regelmäßig?",
                        ),
                        (
                            "Der Neustart geht mit `systemctl restart {e}` und dauert etwa {n2} Sekunden; vorher den Knoten aus dem Pool nehmen.",
                            "Wie starte ich {e} neu?",
                            "Was ist zu tun, bevor man {ea} durchstartet?",
                        ),
                        (
                            "Die Konfiguration liegt in `/etc/{e}/conf.d/`, versioniert im Repo `ops-config` unter `{e}/`.",
                            "Wo liegt die Konfiguration von {e}?",
                            "In welchem Verzeichnis stehen die Einstellungen für {ea}?",
                        ),
                    ],
                    "Am {d} hat ein ungeplanter Neustart ohne Drain {n2} Minuten Ausfall verursacht.",
                    [
                        "Nie direkt auf dem Server ändern, immer über das Repo.",
                        "Wartungen im Kanal #betrieb ankündigen.",
                    ],
                    upd=(
                        "das Poll-Intervall wurde auf {n1} Minuten verkürzt, weil {p2} zu spät alarmiert wurde.",
                        "Wurde das Poll-Intervall für {e} geändert?",
                        "Fragt die Überprüfung von {ea} jetzt häufiger nach?",
                    ),
                    den="Operating notes for {e}: hosts, updates, owners",
                ),
                K(
                    "feedback",
                    "feedback_{e}_alarme",
                    "Alarme für {E}",
                    ["Alarmschwellen für {e} und wie auf Alarme reagiert wird", "{E}-Alarmierung"],
                    [
                        (
                            "{E} alarmiert die Rufbereitschaft, wenn die Antwortzeit {n1} Minuten lang über {n3} ms liegt.",
                            "Ab welcher Antwortzeit alarmiert {e}?",
                            "Wie langsam muss {ea} werden, bevor jemand geweckt wird?",
                        ),
                        (
                            "Plattenplatz-Warnungen kommen bei {n2} %, vorher wird nur ein Ticket angelegt.",
                            "Ab wie viel Prozent Plattenbelegung warnt {e}?",
                            "Wann meldet sich {ea} wegen vollem Speicher?",
                        ),
                        (
                            "Das Runbook `runbooks/{e}.md` pflegt {p}.",
                            "Wer pflegt das Runbook für {e}?",
                            "Wer hält die Störungsanleitung für {ea} aktuell?",
                        ),
                    ],
                    "Zu viele Fehlalarme im {d} haben dazu geführt, dass der Kanal stummgeschaltet wurde.",
                    [
                        "Schwellen anpassen statt stummschalten.",
                        "Jeder Alarm braucht einen Runbook-Link.",
                    ],
                ),
            ],
            "tools": [
                T(
                    "mcp__ssh__exec",
                    K(
                        "reference",
                        "reference_ssh_tool",
                        "SSH-Werkzeug: Aufruf",
                        ["Parameter des SSH-MCP-Werkzeugs und erreichbare Hosts"],
                        [
                            (
                                "`mcp__ssh__exec` nimmt `host` und `command`; erreichbar sind nur Hosts aus der Liste `inventory/hosts.ini`.",
                                "",
                                "",
                            ),
                            (
                                "Die Ausgabe kommt als Text zurück, der Exit-Code im Feld `status`.",
                                "",
                                "",
                            ),
                        ],
                        "Am {d} beim Einrichten notiert.",
                        ["Immer den vollen Hostnamen angeben."],
                    ),
                    K(
                        "feedback",
                        "feedback_ssh_tool_root",
                        "SSH-Werkzeug läuft als root",
                        ["Das SSH-Werkzeug führt Befehle als root aus, ohne Rückfrage"],
                        [
                            (
                                "Achtung: das SSH-Werkzeug führt alles als root aus, ohne Bestätigung; ein falsches `rm` löscht sofort.",
                                "",
                                "",
                            ),
                            (
                                "Am {d} wurden so {n2} GB Logs auf {h} gelöscht, die noch gebraucht wurden.",
                                "",
                                "",
                            ),
                        ],
                        "Der Schlüssel des Werkzeugs hat root-Rechte, das ist bekannt.",
                        [
                            "Vor löschenden Befehlen erst `ls` laufen lassen.",
                            "Nie Platzhalter in Pfaden.",
                        ],
                    ),
                    [
                        "Lösche die alten Logdateien auf dem Proxy-Server.",
                        "Räum auf dem Datenbankserver das tmp-Verzeichnis auf.",
                    ],
                )
            ],
        },
        "web": {
            "entities": [
                ("shop", "der Onlineladen"),
                ("kasse", "der Bezahlvorgang"),
                ("suche", "die Produktsuche"),
                ("konto", "die Anmeldung"),
                ("versand", "die Paketzustellung"),
                ("gutschein", "die Rabattcodes"),
                ("newsletter", "die Werbe-E-Mails"),
                ("lager", "der Warenbestand"),
            ],
            "kits": [
                K(
                    "feedback",
                    "feedback_{e}_tests",
                    "Tests für {E}",
                    ["Wie Tests im {e}-Service geschrieben werden", "Testregeln {e}"],
                    [
                        (
                            "Integrationstests für {e} laufen gegen eine echte Postgres-Instanz im Container, niemals gegen Mocks.",
                            "Dürfen {e}-Integrationstests Mocks benutzen?",
                            "Prüfen wir {ea} gegen eine echte Datenbank oder gegen Attrappen?",
                        ),
                        (
                            "Die Testdaten kommen aus `tests/{e}/fixtures/` und werden mit `make seed` geladen; der Lauf dauert rund {n2} Sekunden.",
                            "Wo liegen die Testdaten für {e}?",
                            "Woher kommen die Beispieldatensätze beim Prüfen von {ea}?",
                        ),
                        (
                            "Die Abdeckung darf nicht unter {n2} % fallen, sonst blockiert die Pipeline den Merge.",
                            "Welche Mindestabdeckung gilt für {e}?",
                            "Wie viel des Codes von {ea} muss durch Prüfungen erfasst sein?",
                        ),
                    ],
                    "Im {d} hat ein Mock eine kaputte Migration verdeckt, die dann in Produktion fehlschlug.",
                    ["Neue Tests immer mit echter DB.", "Fixtures klein halten."],
                ),
                K(
                    "project",
                    "project_{e}_umbau",
                    "Umbau {E}",
                    ["Stand des Umbaus von {e}: was erledigt ist, was offen ist", "{E}-Umbau"],
                    [
                        (
                            "Der Umbau von {e} auf die neue API-Version {v} ist zur Hälfte erledigt.",
                            "Auf welche API-Version wird {e} umgebaut?",
                            "Auf welche Schnittstellenversion wird {ea} umgestellt?",
                        ),
                        (
                            "Offen ist noch die Umstellung der Preisberechnung; {p} schätzt {n1} Tage.",
                            "Was ist beim {e}-Umbau noch offen?",
                            "Was fehlt noch bei der Umstellung von {ea}, und wie lange dauert es?",
                        ),
                        (
                            "Die alte Route `/api/v1/{e}` bleibt bis {d2} erreichbar, danach liefert sie 410.",
                            "Wie lange bleibt die alte {e}-Route erreichbar?",
                            "Bis wann funktioniert der frühere Endpunkt von {ea}?",
                        ),
                    ],
                    "Der Kunde braucht die neue Version für das Weihnachtsgeschäft.",
                    ["Jeden Schritt im Ticket #{pr} dokumentieren."],
                    upd=(
                        "die Preisberechnung ist fertig (PR #{pr}); nur noch die Gutscheine fehlen.",
                        "Ist die Preisberechnung im {e}-Umbau fertig?",
                        "Sind die Kosten-Formeln bei {ea} schon umgestellt?",
                    ),
                    den="Rewrite of {e} onto the new API: done and open items",
                ),
            ],
        },
    },
}

FR = {
    "code": "fr",
    "space": " ",
    "labels": {
        "why": "**Pourquoi :**",
        "how": "**Comment appliquer :**",
        "update": "Mise à jour {d2} :",
        "related": "Voir aussi :",
        "sections": ["Fait", "En cours", "À faire"],
    },
    "people": ["Camille", "Julien", "Amélie", "Hugo", "Inès", "Mathieu", "Chloé"],
    "hosts": ["calcul-01", "gpu-lyon", "nas-labo", "jupyter-03"],
    "filler": {
        "status": [
            "{d} : fusionné #{pr} ({sha}) après relecture de {p}",
            "{d} : {p} a relancé le job de nuit sur {h}, vert après {n1} essais",
            "{d} : dépendances passées en {v}, rien d'autre",
            "{d} : ticket #{pr} fermé comme doublon",
            "{d} : {n2} branches obsolètes supprimées",
            "{d} : notes de réunion déplacées sur le wiki",
            "{d} : relu les commentaires avec {p2}, {n1} encore ouverts",
            "{d} : le calcul a pris {n2} minutes sur {h}",
        ],
        "notes": [
            "{p} trouve le nommage confus, mais personne n'a proposé mieux.",
            "On en a reparlé le {d} et on a laissé tel quel.",
            "Rien d'urgent ; c'est noté pour que la prochaine session ne refasse pas les recherches.",
            "Le commit {sha} est le dernier état connu comme bon.",
            "{p2} est absent jusqu'au {d}, {p} décide en attendant.",
            "Les chiffres ont été vérifiés deux fois à la main.",
        ],
    },
    "user": [
        K(
            "user",
            "user_profil",
            "Profil de l'utilisatrice",
            ["Doctorante en apprentissage automatique, écrit en français, code en Python"],
            [
                (
                    "L'utilisatrice est doctorante en apprentissage automatique à Grenoble et travaille sous VS Code.",
                    "Quel éditeur utilise l'utilisatrice ?",
                    "Avec quel outil de programmation travaille cette personne ?",
                ),
                (
                    "Elle veut des réponses en français et des explications mathématiques détaillées.",
                    "En quelle langue faut-il répondre ?",
                    "Dans quel idiome faut-il lui écrire ?",
                ),
            ],
            "Dit lors de la première session.",
            ["Répondre en français."],
        )
    ],
    "log": [
        LOG(
            "project_session_{e}_{d}",
            "Notes de session {d}",
            "Ce qui s'est passé pendant la session du {d} et ce qui reste ouvert",
            "Session du {d} avec {p} : surtout du rangement.",
            "Pour que la prochaine session sache où on en est.",
            "Reprendre d'abord les points ouverts.",
        )
    ],
    "frames": [
        "Petite vérification avant de commencer : {q}",
        "{q} J'en ai besoin pour le ticket en cours.",
    ],
    "joiners": ["{a} Et aussi : {b}", "Deux questions. {a} {b}"],
    "none": [
        "Quelle est la recette de la tarte tatin ?",
        "Traduis ce paragraphe en italien.",
        "Combien de lunes a Jupiter ?",
        "Quel jeu de société pour quatre joueurs ?",
        "Comment enlever une tache de vin rouge sur un tapis ?",
        "Écris un petit poème sur l'automne.",
        "Quelle est la capitale de la Mongolie ?",
        "Comment entretenir une orchidée ?",
    ],
    "domains": {
        "research": {
            "entities": [
                ("attention", "le mécanisme d'attention"),
                ("distillation", "l'entraînement d'un petit élève"),
                ("segmentation", "le découpage des images"),
                ("traduction", "le passage d'une langue à l'autre"),
                ("compression", "la réduction des modèles"),
                ("robustesse", "le comportement face au bruit"),
                ("diffusion", "les modèles génératifs d'images"),
                ("graphes", "les réseaux de nœuds"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_experiences",
                    "Expériences {e}",
                    [
                        "Journal des expériences sur {e} : configurations, résultats, suites",
                        "État de l'étude {e}",
                    ],
                    [
                        (
                            "Les runs sur {e} utilisent `configs/{e}/base.yaml` avec la graine {n1} et {n2}k pas.",
                            "Quelle configuration utilisent les runs sur {e} ?",
                            "Quel fichier de réglages et quelle graine pour l'étude sur {ea} ?",
                        ),
                        (
                            "Meilleur résultat : {n2},{n1} sur la validation avec un taux d'apprentissage de 3e-4 ; à 1e-3 ça diverge.",
                            "Quel est le meilleur résultat des expériences {e} ?",
                            "Quel score maximal a-t-on atteint pour {ea}, et quel pas fait exploser l'entraînement ?",
                        ),
                        (
                            "Les checkpoints sont dans `/scratch/{p}/{e}/` et sont effacés après {n2} jours.",
                            "Où sont stockés les checkpoints {e} ?",
                            "Dans quel dossier sont gardés les poids sauvegardés pour {ea} ?",
                        ),
                    ],
                    "Les résultats d'avant le {d} utilisaient un script d'évaluation bogué.",
                    ["Noter chaque run dans `results/{e}.md`.", "Taguer avec le hash git."],
                    upd=(
                        "le bug d'évaluation est corrigé dans {sha} ; les chiffres après ce commit sont comparables.",
                        "Quel commit a corrigé le bug d'évaluation {e} ?",
                        "À partir de quelle révision les scores sur {ea} sont-ils fiables ?",
                    ),
                    den="Experiment log for {e}: configs, results, next steps",
                ),
                K(
                    "feedback",
                    "feedback_{e}_redaction",
                    "Rédaction {e}",
                    ["Conventions d'écriture pour l'article sur {e}", "Style de l'article {e}"],
                    [
                        (
                            "Dans l'article sur {e}, les vecteurs sont en gras minuscule, jamais avec des flèches.",
                            "Comment écrire les vecteurs dans l'article {e} ?",
                            "Quelle typographie pour les grandeurs colonnes quand on parle de {ea} ?",
                        ),
                        (
                            "Les figures sont produites par `plots/{e}.py` à {n3} dpi, palette adaptée aux daltoniens.",
                            "Quelle résolution pour les figures de l'article {e} ?",
                            "Combien de points par pouce pour les graphiques sur {ea} ?",
                        ),
                        (
                            "{p} exige de citer aussi la version atelier du papier.",
                            "Quelles versions citer dans l'article {e} ?",
                            "Le directeur veut-il les deux publications en référence pour {ea} ?",
                        ),
                    ],
                    "La dernière soumission a perdu des points pour une notation incohérente.",
                    ["Lancer `make lint-tex` avant d'envoyer un brouillon."],
                ),
            ],
            "tools": [
                T(
                    "mcp__slurm__submit",
                    K(
                        "reference",
                        "reference_outil_slurm",
                        "Outil Slurm : paramètres",
                        ["Comment appeler l'outil MCP Slurm : script, partition, options"],
                        [
                            (
                                "`mcp__slurm__submit` prend `script` (un chemin) et `partition` ; il renvoie l'identifiant du job.",
                                "",
                                "",
                            ),
                            (
                                "La partition par défaut est `gpu-court`, limitée à {n1} heures.",
                                "",
                                "",
                            ),
                        ],
                        "Noté le {d} en branchant l'outil.",
                        ["Toujours préciser la partition."],
                    ),
                    K(
                        "feedback",
                        "feedback_outil_slurm_quota",
                        "Outil Slurm et quota",
                        ["L'outil Slurm compte les jobs annulés dans le quota d'équipe"],
                        [
                            (
                                "Attention : chaque job soumis par l'outil Slurm est compté dans le quota de l'équipe même s'il est annulé aussitôt.",
                                "",
                                "",
                            ),
                            ("Le {d}, {n2} soumissions ratées ont vidé le quota du mois.", "", ""),
                        ],
                        "Le cluster facture la réservation, pas l'usage.",
                        ["Vérifier le script avec `--test-only` avant de soumettre."],
                    ),
                    [
                        "Soumets l'entraînement de la nuit sur le cluster.",
                        "Relance les cinq jobs qui ont échoué hier soir.",
                    ],
                )
            ],
        },
        "data": {
            "entities": [
                ("ventes", "le chiffre d'affaires"),
                ("clients", "la base des acheteurs"),
                ("stocks", "les quantités en entrepôt"),
                ("trafic", "les visites du site"),
                ("avis", "les commentaires des acheteurs"),
                ("prix", "les tarifs"),
                ("livraisons", "les expéditions"),
                ("retours", "les produits renvoyés"),
            ],
            "kits": [
                K(
                    "project",
                    "project_tableau_{e}",
                    "Tableau de bord {e}",
                    [
                        "Le tableau de bord {e} : sources, rafraîchissement, problèmes connus",
                        "Dashboard {e}",
                    ],
                    [
                        (
                            "Le tableau de bord {e} est rafraîchi chaque nuit à {n1} h par le job `refresh_{e}`.",
                            "À quelle heure est rafraîchi le tableau de bord {e} ?",
                            "Quand les chiffres sur {ea} sont-ils recalculés ?",
                        ),
                        (
                            "Les données viennent de la table `dwh.{e}_jour`, qui a {n1} jours de retard le lundi.",
                            "D'où viennent les données du tableau {e} ?",
                            "Quelle table alimente les graphiques sur {ea} ?",
                        ),
                        (
                            "{p} est la référente métier ; toute nouvelle métrique passe par elle.",
                            "Qui valide les nouvelles métriques du tableau {e} ?",
                            "À qui demander avant d'ajouter un indicateur sur {ea} ?",
                        ),
                    ],
                    "La direction regarde ce tableau chaque lundi matin.",
                    ["Tester la requête sur une semaine avant de publier."],
                ),
                K(
                    "feedback",
                    "feedback_{e}_nettoyage",
                    "Nettoyage des données {e}",
                    ["Règles de nettoyage des données {e}", "Qualité des données {e}"],
                    [
                        (
                            "Les doublons dans {e} se repèrent sur la clé (`id_source`, `date`) ; ne jamais dédoublonner sur le nom.",
                            "Sur quelle clé dédoublonner {e} ?",
                            "Comment repérer les lignes en double pour {ea} ?",
                        ),
                        (
                            "Les montants négatifs sont des avoirs, pas des erreurs ; environ {n2} % des lignes.",
                            "Les montants négatifs dans {e} sont-ils des erreurs ?",
                            "Que signifient les valeurs sous zéro pour {ea} ?",
                        ),
                    ],
                    "Un dédoublonnage sur le nom a fusionné {n3} clients différents en {d}.",
                    ["Garder les avoirs.", "Documenter chaque filtre."],
                ),
            ],
        },
    },
}

ES = {
    "code": "es",
    "space": " ",
    "labels": {
        "why": "**Por qué:**",
        "how": "**Cómo aplicar:**",
        "update": "Actualización {d2}:",
        "related": "Relacionado:",
        "sections": ["Hecho", "Pendiente", "Siguiente"],
    },
    "people": ["Lucía", "Diego", "Carmen", "Javier", "Sofía", "Andrés", "Marta"],
    "hosts": ["build-mad", "api-prod-2", "mac-ci", "staging-1"],
    "filler": {
        "status": [
            "{d}: fusionado #{pr} ({sha}) tras la revisión de {p}",
            "{d}: {p} relanzó el job nocturno en {h}, verde tras {n1} intentos",
            "{d}: dependencias subidas a {v}, nada más",
            "{d}: cerrado #{pr} por duplicado",
            "{d}: borradas {n2} ramas viejas",
            "{d}: notas de la reunión movidas a la wiki",
            "{d}: repasados los comentarios con {p2}, quedan {n1}",
            "{d}: la CI tardó {n2} minutos en {h}",
        ],
        "notes": [
            "A {p} le parece confuso el nombre, pero nadie ha propuesto otro mejor.",
            "Lo volvimos a hablar el {d} y lo dejamos igual.",
            "Nada urgente; queda anotado para que la próxima sesión no repita la búsqueda.",
            "El commit {sha} es el último estado que sabemos que funciona.",
            "{p2} está fuera hasta el {d}; mientras tanto decide {p}.",
            "Las cifras se revisaron dos veces a mano.",
        ],
    },
    "user": [
        K(
            "user",
            "user_perfil",
            "Perfil del usuario",
            ["Desarrollador móvil en Madrid, prefiere respuestas en español y ejemplos en Kotlin"],
            [
                (
                    "El usuario es desarrollador móvil en Madrid y trabaja con Android Studio.",
                    "¿Qué IDE usa el usuario?",
                    "¿Con qué herramienta programa esta persona?",
                ),
                (
                    "Prefiere ejemplos en Kotlin y respuestas cortas en español.",
                    "¿En qué lenguaje quiere los ejemplos?",
                    "¿Qué sintaxis prefiere ver en las muestras de código?",
                ),
            ],
            "Lo dijo en la primera sesión.",
            ["Responder en español."],
        )
    ],
    "log": [
        LOG(
            "project_sesion_{e}_{d}",
            "Notas de sesión {d}",
            "Qué pasó en la sesión del {d} y qué queda abierto",
            "Sesión del {d} con {p}: sobre todo limpieza.",
            "Para que la próxima sesión sepa dónde estamos.",
            "Empezar por los puntos abiertos.",
        )
    ],
    "frames": ["Antes de tocar nada: {q}", "{q} Lo necesito para el ticket de hoy."],
    "joiners": ["{a} Además: {b}", "Dos cosas. {a} {b}"],
    "none": [
        "¿Cómo se hace una paella valenciana?",
        "Traduce este párrafo al italiano.",
        "¿Cuántas lunas tiene Júpiter?",
        "¿Qué juego de mesa va bien para cuatro personas?",
        "¿Cómo quito una mancha de vino tinto de la alfombra?",
        "Escribe un poema corto sobre el otoño.",
        "¿Cuál es la capital de Mongolia?",
        "¿Cómo cuido una orquídea?",
    ],
    "domains": {
        "mobile": {
            "entities": [
                ("ios", "la app del iPhone"),
                ("android", "la versión para Android"),
                ("pagos", "cobrar con tarjeta"),
                ("mapa", "la vista de ubicaciones"),
                ("chat", "la mensajería"),
                ("perfil", "la pantalla de cuenta"),
                ("fotos", "la galería"),
                ("reservas", "las citas"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_publicacion",
                    "Publicación {e}",
                    [
                        "Proceso de publicación de {e}: ritmo, congelación, revisión en tienda",
                        "Cómo sale {e}",
                    ],
                    [
                        (
                            "La parte de {e} sale cada {n1} semanas; la congelación de código es el jueves anterior a las 14:00.",
                            "¿Cada cuánto se publica {e}?",
                            "¿Con qué ritmo mandamos versiones de {ea} a la tienda?",
                        ),
                        (
                            "El despliegue escalonado empieza en el {n1} % y se duplica cada día si no suben los cierres inesperados.",
                            "¿En qué porcentaje empieza el despliegue escalonado de {e}?",
                            "¿A cuánta gente le llega primero una versión nueva de {ea}?",
                        ),
                        (
                            "La versión {v} está bloqueada en revisión porque falta la entrada de ubicación en la etiqueta de privacidad.",
                            "¿Por qué está bloqueada la versión actual de {e}?",
                            "¿Qué frena la última entrega de {ea} con los revisores de Apple?",
                        ),
                    ],
                    "Un parche se saltó la congelación el {d} y llevó un fallo de inicio de sesión a todos.",
                    ["Nada entra en la rama de release sin el visto bueno de {p2}."],
                    upd=(
                        "desde el {d2} publicamos cada semana; la congelación es el martes a mediodía.",
                        "¿Cambió el ritmo de publicación de {e}?",
                        "¿Sale {ea} más a menudo ahora?",
                    ),
                    den="Release process for {e}: cadence, freeze, store review",
                ),
                K(
                    "feedback",
                    "feedback_{e}_errores",
                    "Errores de {e}",
                    ["Cómo se gestionan los informes de fallos de {e}", "Triaje de fallos {e}"],
                    [
                        (
                            "Los cierres de {e} van al proyecto de Sentry `{e}-prod`; los símbolos los sube el paso `upload-symbols` de la CI.",
                            "¿A qué proyecto de Sentry van los fallos de {e}?",
                            "¿Dónde acaban las trazas de {ea}?",
                        ),
                        (
                            "El triaje es cada mañana a las 9:30; {p} organiza el turno.",
                            "¿Quién organiza el turno de triaje de {e}?",
                            "¿Qué compañero reparte la revisión diaria de problemas de {ea}?",
                        ),
                    ],
                    "Durante una versión entera de {d} los informes no tenían símbolos.",
                    ["No marcar un grupo como resuelto sin PR enlazado."],
                ),
            ],
            "tools": [
                T(
                    "mcp__emulador__instalar",
                    K(
                        "reference",
                        "reference_herramienta_emulador",
                        "Herramienta del emulador: parámetros",
                        ["Cómo llamar a la herramienta MCP del emulador para instalar builds"],
                        [
                            (
                                "`mcp__emulador__instalar` recibe `dispositivo` y `apk`; arranca el emulador si hace falta.",
                                "",
                                "",
                            ),
                            ("Los logs vuelven en `stdout`.", "", ""),
                        ],
                        "Anotado el {d} al automatizar capturas.",
                        ["Usar nombres de dispositivo, no números de serie."],
                    ),
                    K(
                        "feedback",
                        "feedback_emulador_borra_datos",
                        "El emulador borra los datos",
                        ["Instalar con la herramienta del emulador borra las cuentas de prueba"],
                        [
                            (
                                "Ojo: instalar con la herramienta del emulador borra los datos de la app, así que la cuenta de QA desaparece.",
                                "",
                                "",
                            ),
                            ("{p} perdió una tarde de preparación por esto el {d}.", "", ""),
                        ],
                        "La herramienta desinstala antes de instalar si cambia la firma.",
                        ["Guardar antes las cuentas con `scripts/qa_cuentas.sh`."],
                    ),
                    [
                        "Instala la última build de depuración en el emulador y entra con el usuario de QA.",
                        "Pon la nueva versión en el emulador para revisar la pantalla de ajustes.",
                    ],
                )
            ],
        },
        "assistant": {
            "entities": [
                ("sevilla", "la capital andaluza"),
                ("lisboa", "la capital portuguesa"),
                ("bilbao", "la ciudad del Guggenheim"),
                ("roma", "la capital italiana"),
                ("oporto", "la ciudad del vino portugués"),
                ("granada", "la ciudad de la Alhambra"),
            ],
            "kits": [
                K(
                    "project",
                    "project_viaje_{e}",
                    "Viaje a {E}",
                    ["Planes del viaje a {e}: fechas, reservas, pendientes", "Viaje {e}"],
                    [
                        (
                            "El viaje a {e} es a partir del {d} durante {n1} noches; los vuelos están reservados, el hotel no.",
                            "¿Cuándo es el viaje a {e}?",
                            "¿Qué fechas tiene la escapada a {ea}?",
                        ),
                        (
                            "El presupuesto total es de {n4} euros con vuelos; las cenas las paga {p}.",
                            "¿Cuál es el presupuesto del viaje a {e}?",
                            "¿Cuánto dinero hay para las vacaciones en {ea}?",
                        ),
                        (
                            "El seguro de viaje está en la carpeta `Documentos/viajes/{e}`; cubre solo {n2} días.",
                            "¿Dónde está el seguro del viaje a {e}?",
                            "¿Dónde guardé la póliza para ir a {ea}?",
                        ),
                    ],
                    "El último viaje tuvo reservas solapadas porque los planes estaban en tres chats.",
                    ["Todo lo del viaje en este archivo."],
                ),
                K(
                    "reference",
                    "reference_suscripcion_{e}",
                    "Suscripción {e}",
                    ["Dónde están los datos de la suscripción {e} y su renovación", "{E}: cuenta"],
                    [
                        (
                            "La suscripción de {e} se renueva el día {n1} de cada mes por {n2} euros.",
                            "¿Cuándo se renueva la suscripción de {e}?",
                            "¿Qué día del mes se cobra {ea}?",
                        ),
                        (
                            "Para darse de baja hacen falta {n2} días de preaviso por carta.",
                            "¿Cómo cancelo {e}?",
                            "¿Qué plazo de aviso hay para dejar {ea}?",
                        ),
                    ],
                    "La renovación sorprendió dos veces.",
                    ["Avisar tres días antes de la renovación."],
                    entities=[
                        ("gimnasio", "el sitio donde entreno"),
                        ("streaming", "las series en línea"),
                        ("periodico", "el diario"),
                    ],
                ),
            ],
        },
    },
}

JA = {
    "code": "ja",
    "space": "",
    "labels": {
        "why": "**Why:**",
        "how": "**How to apply:**",
        "update": "追記 {d2}:",
        "related": "関連:",
        "sections": ["完了", "未完了", "次にやること"],
    },
    "people": ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺"],
    "hosts": ["app-tokyo-1", "db-main", "ci-02", "batch-osaka"],
    "filler": {
        "status": [
            "{d}: #{pr} をマージ（{sha}）、レビューは{p}さん",
            "{d}: {p}さんが{h}で夜間ジョブを再実行、{n1}回目で成功",
            "{d}: 依存ライブラリを{v}に更新、それ以外の変更なし",
            "{d}: #{pr} を重複としてクローズ",
            "{d}: 古いブランチを{n2}本削除",
            "{d}: 会議メモをWikiに移動",
            "{d}: {p2}さんとレビューコメントを確認、残り{n1}件",
            "{d}: {h}でのCIは{n2}分",
        ],
        "notes": [
            "{p}さんは命名が分かりにくいと言っているが、代案はまだない。",
            "{d}にもう一度話し合い、現状維持とした。",
            "急ぎではない。次のセッションで同じ調査をしないように書いておく。",
            "コミット{sha}が最後に正常だと確認できた状態。",
            "{p2}さんは{d}まで不在なので、それまでは{p}さんが判断する。",
            "数字は手作業で二回確認済み。",
        ],
    },
    "user": [
        K(
            "user",
            "user_profile",
            "ユーザーについて",
            ["東京のWebエンジニア。回答は日本語、コードコメントは英語を希望"],
            [
                (
                    "ユーザーは東京の会社で働くWebエンジニアで、エディタはVS Codeを使っている。",
                    "ユーザーはどのエディタを使っている？",
                    "この人が普段プログラミングに使っている道具は何？",
                ),
                (
                    "回答は日本語で、ただしコード内のコメントは必ず英語で書いてほしいとのこと。",
                    "コードのコメントは何語で書く？",
                    "ソース中の注釈はどの言語にすべき？",
                ),
            ],
            "最初のセッションで本人が言っていた。",
            ["会話は日本語、コードは英語。"],
        )
    ],
    "log": [
        LOG(
            "project_session_{e}_{d}",
            "セッションメモ {d}",
            "{d}のセッションで行ったことと残っている課題",
            "{d}のセッション（{p}さんと）：主に片付け作業。",
            "次のセッションが状況を把握できるように。",
            "まず未完了の項目から。",
        )
    ],
    "frames": ["作業を始める前に確認したい。{q}", "{q} 今のチケットで必要なので。"],
    "joiners": ["{a} それと、{b}", "二つ質問です。{a} {b}"],
    "none": [
        "美味しいカレーの作り方を教えて。",
        "この段落をイタリア語に翻訳して。",
        "木星には衛星がいくつある？",
        "四人で遊べるボードゲームのおすすめは？",
        "カーペットについた赤ワインの染みの落とし方は？",
        "秋についての短い詩を書いて。",
        "モンゴルの首都はどこ？",
        "観葉植物の水やりの頻度は？",
    ],
    "domains": {
        "web": {
            "entities": [
                ("予約", "席を押さえる機能", "reservation"),
                ("決済", "お金の支払い", "payment"),
                ("会員", "ログインとプロフィール", "member"),
                ("検索", "商品を探す機能", "search"),
                ("通知", "メールとプッシュの送信", "notify"),
                ("在庫", "倉庫の残り数", "stock"),
                ("クーポン", "割引コード", "coupon"),
                ("配送", "荷物の発送", "delivery"),
            ],
            "kits": [
                K(
                    "feedback",
                    "feedback_{e}_api_retry",
                    "{e}APIのリトライ方針",
                    [
                        "{e}APIの外部呼び出しはバックオフ付きで再試行し、上限を超えたら退避テーブルへ",
                        "{e}APIの注意点",
                    ],
                    [
                        (
                            "{e}サービスから外部への呼び出しは指数バックオフで再試行し、初回の待ち時間は{n1}秒。",
                            "{e}APIのリトライの初回待ち時間は？",
                            "{ea}で相手先への再送を始めるまで何秒置く？",
                        ),
                        (
                            "{n2}回失敗するとイベントは`{e}_dead_letters`テーブルに移され、{p}さんに通知が飛ぶ。",
                            "{e}のイベントは何回失敗するとdead lettersテーブルに移る？",
                            "{ea}の呼び出しがずっと失敗したとき、誰に知らせが行く？",
                        ),
                        (
                            "相手先は{n3}ミリ秒以内に応答しなければならず、遅い応答は失敗として数える。",
                            "{e}APIの相手先の応答期限は？",
                            "{ea}で先方がどれくらい速く返事しないと失敗扱いになる？",
                        ),
                    ],
                    "{d}に相手先の障害で再試行がループし、{e}のワーカーが他のジョブを二時間止めた。",
                    ["バックオフの初期値を下げるときは{p}さんに相談する。"],
                    upd=(
                        "重複配信の苦情を受けて、試行回数の上限を{n1}回に下げた（PR #{pr}）。",
                        "{e}APIの試行回数の上限は最近変わった？",
                        "{ea}で二重に届くという苦情のあと何を変えた？",
                    ),
                    den="Retry policy for outbound calls from {e}",
                ),
                K(
                    "project",
                    "project_{e}_redesign",
                    "{e}画面リニューアル",
                    ["{e}画面のリニューアルの進捗：完了・未完了・次の作業", "{e}リニューアル"],
                    [
                        (
                            "{e}画面のリニューアルは新デザインシステム{v}への移行で、半分ほど終わっている。",
                            "{e}画面はどのデザインシステムに移行中？",
                            "{ea}の見た目はどの部品集に載せ替えている？",
                        ),
                        (
                            "残っているのはスマホ幅のレイアウトで、{p}さんの見積もりは{n1}日。",
                            "{e}リニューアルで残っている作業は？",
                            "{ea}の作り直しで、まだ終わっていないのはどこ？",
                        ),
                        (
                            "旧画面は`/legacy/{e}`として{d2}まで残し、その後は削除する。",
                            "{e}の旧画面はいつまで残す？",
                            "{ea}の古いページは何日まで見られる？",
                        ),
                    ],
                    "年末のセールまでに新しい画面が必要。",
                    ["進捗はチケット #{pr} に書く。"],
                ),
            ],
            "tools": [
                T(
                    "mcp__browser__screenshot",
                    K(
                        "reference",
                        "reference_browser_tool",
                        "ブラウザツールの使い方",
                        ["ブラウザMCPツールの呼び出し方：URL、画面幅、出力形式"],
                        [
                            (
                                "`mcp__browser__screenshot`は`url`と`width`を受け取り、PNGをbase64で返す。",
                                "",
                                "",
                            ),
                            ("幅を省略すると1280pxになる。", "", ""),
                        ],
                        "{d}にツールを導入したときのメモ。",
                        ["スマホ幅は375を指定する。"],
                    ),
                    K(
                        "feedback",
                        "feedback_browser_tool_login",
                        "ブラウザツールのログイン切れ",
                        [
                            "ブラウザツールは毎回新しいセッションで開くため管理画面はログイン画面になる"
                        ],
                        [
                            (
                                "注意：ブラウザツールは毎回まっさらなセッションで開くので、管理画面を撮るとログイン画面しか写らない。",
                                "",
                                "",
                            ),
                            ("{d}に{p}さんがこれで三十分ほど無駄にした。", "", ""),
                        ],
                        "クッキーを引き継ぐ設定がまだない。",
                        ["管理画面は`?token=`付きのプレビューURLを使う。"],
                    ),
                    [
                        "管理画面のダッシュボードのスクリーンショットを撮って。",
                        "トップページをスマホ幅で撮影して確認したい。",
                    ],
                )
            ],
        },
        "data": {
            "entities": [
                ("売上", "お店の収入", "sales"),
                ("離脱", "お客さんが去ること", "churn"),
                ("需要", "どれだけ仕入れるか", "demand"),
                ("価格", "値付け", "price"),
                ("広告", "宣伝の効果", "ads"),
                ("レビュー", "お客さんの評価", "review"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_features",
                    "{e}モデルの特徴量パイプライン",
                    [
                        "{e}モデルの特徴量を作る夜間パイプライン：入力、スケジュール、既知の問題",
                        "{e}特徴量",
                    ],
                    [
                        (
                            "{e}モデルの特徴量はAirflowの`{e}_features` DAGが毎晩2時{n2}分に作っている。",
                            "{e}の特徴量DAGは何時に動く？",
                            "{ea}の入力データは夜の何時に作り直される？",
                        ),
                        (
                            "出力は`s3://ml-features/{e}/`にparquetで書かれ、{n1}日分をさかのぼって読む。",
                            "{e}の特徴量の出力先は？",
                            "{ea}向けに計算した列はどのバケットに置かれる？",
                        ),
                        (
                            "一年分の再計算には約{n1}時間かかり、計算枠は{p}さんが管理している。",
                            "{e}の特徴量を一年分再計算すると何時間？",
                            "{ea}の入力を十二か月やり直すと、どれくらい掛かって誰の枠を使う？",
                        ),
                    ],
                    "{d}に一日分が抜けた特徴量で再学習してしまい、一週間誰も気づかなかった。",
                    ["再学習の前に行数チェックを見る。"],
                ),
                K(
                    "feedback",
                    "feedback_{e}_evaluation",
                    "{e}モデルの評価方法",
                    ["{e}モデルの評価ルール：分割、指標、報告内容", "{e}評価"],
                    [
                        (
                            "{e}モデルは時系列で分割して評価する。直近{n1}週間をテストにする。",
                            "{e}モデルの評価ではどう分割する？",
                            "{ea}の予測器を判定するとき、行をシャッフルする？",
                        ),
                        (
                            "主指標はPR-AUCで、陽性が全体の{n1}%程度しかないためROC-AUCは使わない。",
                            "{e}の主指標は何？",
                            "{ea}で最初のスライドに載せるスコアはどれ？",
                        ),
                    ],
                    "{d}にランダム分割の結果を発表して、本番で崩れた。",
                    ["`evaluation/split.py --by-time`を使う。"],
                ),
            ],
        },
    },
}

ZH = {
    "code": "zh",
    "space": "",
    "labels": {
        "why": "**Why:**",
        "how": "**How to apply:**",
        "update": "更新 {d2}：",
        "related": "相关：",
        "sections": ["已完成", "进行中", "下一步"],
    },
    "people": ["王伟", "李娜", "张磊", "刘洋", "陈静", "杨帆"],
    "hosts": ["bj-app-01", "sh-db-main", "ci-runner-3", "gz-batch"],
    "filler": {
        "status": [
            "{d}：合并 #{pr}（{sha}），{p}已审核",
            "{d}：{p}在{h}上重跑了夜间任务，第{n1}次通过",
            "{d}：依赖升级到{v}，其他无变化",
            "{d}：#{pr} 作为重复关闭",
            "{d}：清理了{n2}个旧分支",
            "{d}：会议纪要移到了Wiki",
            "{d}：和{p2}过了一遍评审意见，还剩{n1}条",
            "{d}：{h}上的CI用了{n2}分钟",
        ],
        "notes": [
            "{p}觉得命名不好懂，但还没有人提出更好的名字。",
            "{d}又讨论了一次，决定维持现状。",
            "不着急，写在这里是为了下次会话不用重新查。",
            "提交{sha}是最后确认正常的状态。",
            "{p2}休假到{d}，在此之前由{p}决定。",
            "数字已经手工核对过两遍。",
        ],
    },
    "user": [
        K(
            "user",
            "user_profile",
            "用户画像",
            ["数据工程师，在上海工作；回答用中文，代码注释用英文"],
            [
                (
                    "用户是上海一家公司的数据工程师，平时用PyCharm写代码。",
                    "用户用什么IDE？",
                    "这个人平时用哪个编程工具？",
                ),
                (
                    "回答请用中文，但代码里的注释一律用英文。",
                    "代码注释用什么语言？",
                    "源码里的说明文字应该写成哪种文字？",
                ),
            ],
            "第一次会话时本人说的。",
            ["对话用中文，代码用英文。"],
        )
    ],
    "log": [
        LOG(
            "project_session_{e}_{d}",
            "会话记录 {d}",
            "{d}会话做了什么，还有哪些没完成",
            "{d}与{p}的会话：主要是整理工作。",
            "让下次会话知道进度。",
            "先处理未完成的事项。",
        )
    ],
    "frames": ["动手之前先确认一下：{q}", "{q} 手上的工单要用。"],
    "joiners": ["{a} 另外，{b}", "两个问题。{a} {b}"],
    "none": [
        "红烧肉怎么做比较好吃？",
        "把这段话翻译成意大利语。",
        "木星有多少颗卫星？",
        "四个人玩什么桌游比较好？",
        "地毯上的红酒渍怎么去掉？",
        "写一首关于秋天的短诗。",
        "蒙古的首都是哪里？",
        "兰花多久浇一次水？",
    ],
    "domains": {
        "data": {
            "entities": [
                ("销量", "卖出去多少货", "sales"),
                ("流失", "客户离开", "churn"),
                ("推荐", "猜你喜欢", "recommend"),
                ("风控", "识别可疑交易", "risk"),
                ("定价", "商品怎么标价", "pricing"),
                ("库存", "仓库里剩多少", "inventory"),
                ("广告", "投放效果", "ads"),
                ("评论", "买家评价", "comments"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_daily_report",
                    "{e}日报",
                    ["{e}日报的数据来源、刷新时间和已知问题", "{e}报表"],
                    [
                        (
                            "{e}日报每天凌晨{n1}点由任务`refresh_{e}`刷新。",
                            "{e}日报几点刷新？",
                            "{ea}的数字每天什么时候重新算？",
                        ),
                        (
                            "数据来自表`dwh.{e}_daily`，周一会延迟{n1}天。",
                            "{e}日报的数据从哪张表来？",
                            "{ea}的图表用的是哪个数据源？",
                        ),
                        (
                            "业务负责人是{p}，新增指标必须先经过她确认。",
                            "{e}日报新增指标要找谁确认？",
                            "想给{ea}加一个口径，要先问谁？",
                        ),
                    ],
                    "管理层每周一早上都看这张报表。",
                    ["发布前先用一周数据测试查询。"],
                    upd=(
                        "刷新时间改到凌晨{n1}点半，因为上游仓库加载变慢了。",
                        "{e}日报的刷新时间改了吗？",
                        "{ea}的重算时间是不是往后挪了？",
                    ),
                    den="Daily {e} report: sources, refresh time, known issues",
                ),
                K(
                    "feedback",
                    "feedback_{e}_cleaning",
                    "{e}数据清洗规则",
                    ["{e}数据的清洗规则", "{e}数据质量"],
                    [
                        (
                            "{e}数据去重要用（`source_id`，`date`）这两个字段，不能按名称去重。",
                            "{e}数据按什么去重？",
                            "怎么找出{ea}里重复的行？",
                        ),
                        (
                            "负数金额是退款冲销，不是错误，大约占{n2}%的行。",
                            "{e}数据里的负数是错误吗？",
                            "{ea}里小于零的值代表什么？",
                        ),
                    ],
                    "{d}按名称去重把{n3}个不同客户合并成了一个。",
                    ["保留冲销记录。", "每个过滤条件都写文档。"],
                ),
            ],
            "tools": [
                T(
                    "mcp__sql__run",
                    K(
                        "reference",
                        "reference_sql_tool",
                        "SQL工具用法",
                        ["SQL MCP工具的参数、可访问的库和返回格式"],
                        [
                            (
                                "`mcp__sql__run`接收`query`和`database`两个参数，结果以JSON行返回。",
                                "",
                                "",
                            ),
                            ("默认连接的是只读副本`{h}`。", "", ""),
                        ],
                        "{d}接入工具时记录。",
                        ["用参数占位符，不要拼接字符串。"],
                    ),
                    K(
                        "feedback",
                        "feedback_sql_tool_timeout",
                        "SQL工具超时会锁表",
                        ["SQL工具超时后查询仍在后台运行并持有锁"],
                        [
                            (
                                "注意：SQL工具超时返回后，查询其实还在数据库里跑，并且一直持有锁。",
                                "",
                                "",
                            ),
                            ("{d}有一次全表扫描因此把订单表锁了{n2}分钟。", "", ""),
                        ],
                        "工具的超时只作用在客户端。",
                        ["大查询先加`LIMIT`，超时后去库里手动取消。"],
                    ),
                    [
                        "查一下上个月每个城市的订单数。",
                        "把全年的销售明细按品类汇总一下。",
                    ],
                )
            ],
        },
        "infra": {
            "entities": [
                ("网关", "入口代理", "gateway"),
                ("数据库", "主存储", "database"),
                ("缓存", "内存里的加速层", "cache"),
                ("消息队列", "事件总线", "mq"),
                ("备份", "数据的副本", "backup"),
                ("监控", "看板和告警", "monitoring"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_deploy",
                    "{e}部署",
                    ["{e}怎么部署：流水线、主机、回滚", "{e}部署说明"],
                    [
                        (
                            "{e}由`deploy-{e}`流水线用Ansible部署到{h}后面的{n1}台主机。",
                            "{e}是怎么部署的？",
                            "哪条流水线负责把{ea}的新版本推出去？",
                        ),
                        (
                            "回滚命令是`ansible-playbook rollback.yml -e target={e}`，大约需要{n2}分钟。",
                            "{e}怎么回滚？",
                            "{ea}要退回上一个版本该执行什么？",
                        ),
                        (
                            "健康检查每{n2}秒探测一次端口{port}，连续失败{n1}次就摘掉主机。",
                            "{e}的健康检查是哪个端口？",
                            "{ea}的机器失败几次会被摘出去？",
                        ),
                    ],
                    "{d}有人手工改了一台主机，下次部署时改动被悄悄覆盖了。",
                    ["不要手工改主机，改剧本。"],
                ),
                K(
                    "feedback",
                    "feedback_{e}_alerts",
                    "{e}告警",
                    ["{e}的告警阈值和处理方式", "{e}值班规则"],
                    [
                        (
                            "{e}的p99延迟连续{n1}分钟超过{n3}毫秒就会呼叫值班。",
                            "{e}延迟多少会呼叫值班？",
                            "{ea}慢到什么程度会把人叫醒？",
                        ),
                        (
                            "磁盘用到{n2}%才告警，低于这个只开工单。",
                            "{e}磁盘用到多少会告警？",
                            "{ea}的存储满到多少才通知？",
                        ),
                    ],
                    "{d}告警太多，大家把频道静音了，结果错过了真故障。",
                    ["调阈值，不要静音。"],
                ),
            ],
        },
    },
}

KO = {
    "code": "ko",
    "space": " ",
    "labels": {
        "why": "**Why:**",
        "how": "**How to apply:**",
        "update": "업데이트 {d2}:",
        "related": "관련:",
        "sections": ["완료", "진행 중", "다음"],
    },
    "people": ["김민준", "이서연", "박지훈", "최유진", "정하늘", "강도윤"],
    "hosts": ["seoul-app-1", "db-main", "ci-04", "busan-batch"],
    "filler": {
        "status": [
            "{d}: #{pr} 머지 ({sha}), 리뷰어 {p}",
            "{d}: {p}님이 {h}에서 야간 작업 재실행, {n1}번째에 성공",
            "{d}: 의존성 {v}로 올림, 그 외 변경 없음",
            "{d}: #{pr} 중복으로 닫음",
            "{d}: 오래된 브랜치 {n2}개 정리",
            "{d}: 회의록을 위키로 옮김",
            "{d}: {p2}님과 리뷰 코멘트 확인, {n1}개 남음",
            "{d}: {h}에서 CI {n2}분 걸림",
        ],
        "notes": [
            "{p}님은 이름이 헷갈린다고 하지만 더 나은 안은 아직 없다.",
            "{d}에 다시 논의했고 그대로 두기로 했다.",
            "급한 건 아니다. 다음 세션에서 같은 조사를 반복하지 않도록 적어 둔다.",
            "커밋 {sha}가 마지막으로 정상 확인된 상태다.",
            "{p2}님은 {d}까지 휴가라서 그때까지는 {p}님이 결정한다.",
            "숫자는 손으로 두 번 확인했다.",
        ],
    },
    "user": [
        K(
            "user",
            "user_profile",
            "사용자 정보",
            ["서울의 모바일 개발자, 답변은 한국어, 커밋 메시지는 영어"],
            [
                (
                    "사용자는 서울의 스타트업에서 일하는 모바일 개발자이고 Xcode와 Android Studio를 같이 쓴다.",
                    "사용자는 어떤 IDE를 써?",
                    "이 사람이 주로 쓰는 개발 도구는 뭐야?",
                ),
                (
                    "답변은 한국어로, 커밋 메시지는 항상 영어로 써 달라고 했다.",
                    "커밋 메시지는 무슨 언어로 써?",
                    "변경 기록 문구는 어느 나라 말로 남겨야 해?",
                ),
            ],
            "첫 세션에서 직접 말했다.",
            ["대화는 한국어, 커밋은 영어."],
        )
    ],
    "log": [
        LOG(
            "project_session_{e}_{d}",
            "세션 메모 {d}",
            "{d} 세션에서 한 일과 남은 일",
            "{d} {p}님과의 세션: 주로 정리 작업.",
            "다음 세션이 현재 상황을 알 수 있도록.",
            "남은 항목부터 처리.",
        )
    ],
    "frames": ["작업 시작 전에 확인하고 싶어. {q}", "{q} 지금 티켓 때문에 필요해."],
    "joiners": ["{a} 그리고 {b}", "두 가지 질문. {a} {b}"],
    "none": [
        "김치찌개 맛있게 끓이는 법 알려줘.",
        "이 문단을 이탈리아어로 번역해 줘.",
        "목성의 위성은 몇 개야?",
        "네 명이 하기 좋은 보드게임 추천해 줘.",
        "카펫에 묻은 레드와인 얼룩은 어떻게 지워?",
        "가을에 관한 짧은 시를 써 줘.",
        "몽골의 수도는 어디야?",
        "난초는 물을 얼마나 자주 줘야 해?",
    ],
    "domains": {
        "mobile": {
            "entities": [
                ("결제", "카드로 돈 내는 기능", "payment"),
                ("채팅", "메시지 주고받기", "chat"),
                ("지도", "위치 보기", "map"),
                ("알림", "푸시 메시지", "push"),
                ("로그인", "계정 들어가기", "login"),
                ("사진", "갤러리", "photo"),
                ("예약", "일정 잡기", "booking"),
                ("쿠폰", "할인 코드", "coupon"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_release",
                    "{e} 앱 배포",
                    ["{e} 기능 출시 절차: 주기, 코드 프리즈, 스토어 심사", "{e} 출시"],
                    [
                        (
                            "{e} 기능이 들어간 앱은 {n1}주마다 출시하고, 코드 프리즈는 출시 전 목요일 14시다.",
                            "{e} 앱은 얼마나 자주 출시해?",
                            "{ea}이 포함된 버전은 스토어에 어떤 주기로 올려?",
                        ),
                        (
                            "단계적 배포는 {n1}%에서 시작해서 크래시가 늘지 않으면 매일 두 배로 늘린다.",
                            "{e} 단계적 배포는 몇 퍼센트에서 시작해?",
                            "{ea} 새 버전을 처음에 얼마나 적은 사용자에게 보내?",
                        ),
                        (
                            "버전 {v}는 개인정보 라벨에 위치 항목이 빠져서 심사에 걸려 있다.",
                            "{e} 현재 버전이 심사에 걸린 이유는?",
                            "{ea} 최신 제출본이 애플 검토에서 막힌 까닭은 뭐야?",
                        ),
                    ],
                    "{d}에 핫픽스가 프리즈를 건너뛰어서 모든 사용자에게 로그인 크래시가 나갔다.",
                    ["프리즈 이후에는 {p2}님 승인 없이 머지 금지."],
                    upd=(
                        "{d2}부터 매주 출시로 바뀌었고, 프리즈는 화요일 정오다.",
                        "{e} 출시 주기가 바뀌었어?",
                        "{ea} 버전이 요즘 더 자주 나가?",
                    ),
                    den="Release train for the {e} feature: cadence, freeze, review",
                ),
                K(
                    "feedback",
                    "feedback_{e}_crashes",
                    "{e} 크래시 처리",
                    ["{e} 크래시 리포트 처리 방식", "{e} 크래시 분류"],
                    [
                        (
                            "{e} 관련 크래시는 Sentry 프로젝트 `{e}-prod`로 가고, 심볼은 CI의 `upload-symbols` 단계가 올린다.",
                            "{e} 크래시는 어느 Sentry 프로젝트로 가?",
                            "{ea} 쪽 스택 트레이스는 어디에 쌓여?",
                        ),
                        (
                            "분류는 매일 아침 9시 30분에 하고, 당번표는 {p}님이 관리한다.",
                            "{e} 크래시 당번표는 누가 관리해?",
                            "{ea} 문제를 매일 들여다보는 순서는 누가 정해?",
                        ),
                    ],
                    "{d} 한 버전 내내 심볼이 없어 리포트를 읽을 수 없었다.",
                    ["PR 링크 없이 해결 처리하지 않는다."],
                ),
            ],
            "tools": [
                T(
                    "mcp__device__install",
                    K(
                        "reference",
                        "reference_device_tool",
                        "디바이스 도구 사용법",
                        ["디바이스 MCP 도구 호출 방법: 기기 이름, 빌드 경로, 로그"],
                        [
                            (
                                "`mcp__device__install`은 `device`와 `build_path`를 받고 필요하면 시뮬레이터를 켠다.",
                                "",
                                "",
                            ),
                            ("로그는 `stdout`으로 돌아온다.", "", ""),
                        ],
                        "{d}에 스크린샷 자동화하면서 적어 둠.",
                        ["기기 이름으로 지정한다."],
                    ),
                    K(
                        "feedback",
                        "feedback_device_tool_wipe",
                        "디바이스 도구가 데이터를 지움",
                        ["디바이스 도구로 설치하면 테스트 계정 데이터가 지워진다"],
                        [
                            (
                                "주의: 디바이스 도구로 설치하면 앱 데이터가 지워져서 QA 계정 로그인이 사라진다.",
                                "",
                                "",
                            ),
                            ("{d}에 {p}님이 이것 때문에 오후를 날렸다.", "", ""),
                        ],
                        "서명이 바뀌면 설치 전에 삭제부터 한다.",
                        ["먼저 `scripts/qa_accounts.sh save`로 계정을 저장한다."],
                    ),
                    [
                        "최신 디버그 빌드를 시뮬레이터에 깔고 QA 계정으로 들어가 줘.",
                        "새 빌드를 아이폰 시뮬레이터에 올려서 설정 화면 확인하고 싶어.",
                    ],
                )
            ],
        },
        "web": {
            "entities": [
                ("주문", "물건 사기", "order"),
                ("회원", "가입과 프로필", "member"),
                ("검색", "상품 찾기", "search"),
                ("정산", "판매자에게 돈 보내기", "settlement"),
                ("리뷰", "구매 후기", "review"),
                ("배송", "택배 발송", "shipping"),
            ],
            "kits": [
                K(
                    "feedback",
                    "feedback_{e}_tests",
                    "{e} 테스트 규칙",
                    ["{e} 서비스 테스트 작성 규칙", "{e} 테스트"],
                    [
                        (
                            "{e} 통합 테스트는 컨테이너의 실제 Postgres로 돌리고, 절대 목(mock)을 쓰지 않는다.",
                            "{e} 통합 테스트에서 목을 써도 돼?",
                            "{ea} 쪽은 진짜 DB로 검증해, 가짜로 해?",
                        ),
                        (
                            "테스트 데이터는 `tests/{e}/fixtures/`에 있고 `make seed`로 넣으며 약 {n2}초 걸린다.",
                            "{e} 테스트 데이터는 어디 있어?",
                            "{ea} 검증용 샘플 레코드는 어디서 가져와?",
                        ),
                    ],
                    "{d}에 목이 잘못된 마이그레이션을 가려서 운영에서 터졌다.",
                    ["새 테스트는 항상 실제 DB로."],
                ),
                K(
                    "project",
                    "project_{e}_revamp",
                    "{e} 개편",
                    ["{e} 개편 진행 상황: 완료, 남은 일", "{e} 개편 현황"],
                    [
                        (
                            "{e} 개편은 새 API 버전 {v}로 옮기는 작업이고 절반쯤 끝났다.",
                            "{e}은 어떤 API 버전으로 옮기는 중이야?",
                            "{ea} 쪽은 어느 인터페이스 버전으로 바꾸고 있어?",
                        ),
                        (
                            "남은 건 금액 계산 부분이고 {p}님 추정으로 {n1}일 걸린다.",
                            "{e} 개편에서 남은 작업은?",
                            "{ea} 전환에서 아직 안 끝난 부분은 뭐야?",
                        ),
                    ],
                    "연말 세일 전에 새 버전이 필요하다.",
                    ["진행 상황은 티켓 #{pr}에 기록."],
                ),
            ],
        },
    },
}

INTL = {"de": DE, "fr": FR, "es": ES, "ja": JA, "zh": ZH, "ko": KO}
