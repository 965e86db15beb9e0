"""HOLDOUT phrase bank, non-English languages. Other domains and wordings than the tune bank."""

from __future__ import annotations

from bank_common import LOG, K, T

DE = {
    "code": "de",
    "space": " ",
    "labels": {
        "why": "**Grund:**",
        "how": "**Anwendung:**",
        "update": "Korrektur {d2}:",
        "related": "Verwandt:",
        "sections": ["Fertig", "In Arbeit", "Später"],
    },
    "people": ["Anja", "Tobias", "Leonie", "Kerem", "Dirk", "Miriam", "Paul"],
    "hosts": ["rechner-07", "gpu-ber-1", "jupyter-hub", "dwh-prod"],
    "filler": {
        "status": [
            "{d} — {p} hat #{pr} eingespielt ({sha})",
            "{d} — Nachtlauf auf {h} einmal rot, beim {n1}. Versuch grün",
            "{d} — Toolchain auf {v} aktualisiert",
            "{d} — #{pr} abgelehnt und geschlossen",
            "{d} — {p2} hat das Board aufgeräumt, {n2} Karten archiviert",
            "{d} — Retro-Notizen geschrieben",
            "{d} — {n1} Review-Threads mit {p} offen",
            "{d} — Build auf {h} dauerte {n2} Minuten",
        ],
        "notes": [
            "{p} würde das umbenennen, falls wir es je wieder anfassen.",
            "Am {d} nochmal geprüft: stimmt noch.",
            "Das ist Hintergrund, keine Aufgabe.",
            "Der letzte saubere Stand ist {sha}.",
            "{p2} ist bis {d} weg, {p} vertritt.",
            "Zahlen gegen den Rohexport gegengeprüft.",
            "Seitdem hat sich niemand beschwert.",
        ],
    },
    "user": [
        K(
            "user",
            "user_rolle",
            "Rolle des Nutzers",
            ["Datenanalystin in Hamburg, arbeitet in R und Python, mag knappe Antworten"],
            [
                (
                    "Die Nutzerin ist Datenanalystin in Hamburg und arbeitet mit RStudio und Jupyter.",
                    "Mit welchen Werkzeugen arbeitet die Nutzerin?",
                    "Welche Programme benutzt diese Person für Auswertungen?",
                ),
                (
                    "Grafiken bitte mit ggplot2, nicht mit matplotlib.",
                    "Mit welcher Bibliothek sollen Grafiken erstellt werden?",
                    "Welches Paket soll ich für Diagramme nehmen?",
                ),
            ],
            "In einer frühen Sitzung so gesagt.",
            ["Kurz antworten."],
        )
    ],
    "log": [
        LOG(
            "project_arbeitslog_{e}",
            "Arbeitslog {d}",
            "Arbeitslog vom {d}: was vorankam, was blockiert ist",
            "Arbeitslog {d}: mit {p} den Rückstau durchgesehen.",
            "Das Team möchte eine schriftliche Spur.",
            "Blockierte Punkte zuerst lesen.",
        )
    ],
    "frames": ["Zur Einordnung vorab: {q}", "{q} Frage, bevor ich etwas ändere."],
    "joiners": ["{a} Und noch: {b}", "Kurz zwei Dinge — {a} {b}"],
    "none": [
        "Empfiehl mir eine leichte Wanderung bei Innsbruck.",
        "Wie entkalke ich eine Espressomaschine?",
        "Schreib ein Haiku über einen Bahnhof bei Nacht.",
        "Was ist der Unterschied zwischen Natron und Backpulver?",
        "Wie hoch ist der Kilimandscharo?",
        "Welche Zimmerpflanzen sind für Katzen ungiftig?",
        "Wie entsteht ein Regenbogen?",
        "In welchem Jahr fiel die Berliner Mauer?",
    ],
    "domains": {
        "data": {
            "entities": [
                ("startseite", "die Einstiegsseite"),
                ("warenkorb", "die Einkaufsliste im Shop"),
                ("suchfeld", "die Eingabe oben"),
                ("preisseite", "der Tarifvergleich"),
                ("newsletter", "die wöchentliche Mail"),
                ("probeabo", "die Testphase"),
                ("empfehlungen", "vorgeschlagene Artikel"),
                ("gratisversand", "Lieferung ohne Gebühr"),
            ],
            "kits": [
                K(
                    "feedback",
                    "feedback_{e}_experimente",
                    "Auswertung von Experimenten: {e}",
                    [
                        "Wie A/B-Tests auf {e} ausgewertet werden und wann ein Ergebnis zählt",
                        "Testauswertung {e}",
                    ],
                    [
                        (
                            "Tests auf {e} laufen mindestens {n1} volle Wochen, damit sich Wochentagseffekte ausgleichen.",
                            "Wie lange müssen Tests auf {e} laufen?",
                            "Was ist die Mindestdauer eines Vergleichs bei {ea}?",
                        ),
                        (
                            "Hauptmetrik ist Umsatz pro Besucher; die Konversionsrate allein hat uns einmal um {n2} % getäuscht.",
                            "Was ist die Hauptmetrik für Tests auf {e}?",
                            "Welche Zahl entscheidet, welche Variante von {ea} gewinnt?",
                        ),
                        (
                            "Ein Stichproben-Ungleichgewicht über 0,{n1} % macht den Test ungültig; {p} prüft das vor jeder Auswertung.",
                            "Wann ist ein Test auf {e} wegen Ungleichgewicht ungültig?",
                            "Wann verwerfen wir einen Vergleich bei {ea}, weil die Gruppen ungleich groß sind?",
                        ),
                    ],
                    "Ein zu früh gestoppter Test hat am {d} einen Gewinner ausgerufen, der im Quartal Geld verlor.",
                    ["Metrik vorab im Testdokument festlegen."],
                    upd=(
                        "Mindestdauer auf {n1} Wochen erhöht, nachdem das Weihnachtsgeschäft zwei Tests verzerrt hat.",
                        "Wurde die Mindestdauer für Tests auf {e} geändert?",
                        "Müssen Vergleiche bei {ea} jetzt länger laufen?",
                    ),
                    den="How A/B tests on {e} are analysed",
                ),
                K(
                    "project",
                    "project_{e}_datenmodell",
                    "Datenmodell {e}",
                    [
                        "Das dbt-Modell hinter den {e}-Berichten: Quellen, Granularität, Aktualisierung",
                        "{e}: dbt-Notizen",
                    ],
                    [
                        (
                            "Das dbt-Modell `fct_{e}` hat eine Zeile pro Sitzung und wird alle {n1} Stunden neu gebaut.",
                            "Welche Granularität hat fct_{e}?",
                            "Wofür steht eine einzelne Zeile in der Berichtstabelle zu {ea}?",
                        ),
                        (
                            "Verspätete Ereignisse bis {n2} Stunden werden inkrementell nachgezogen.",
                            "Wie spät dürfen Ereignisse für fct_{e} ankommen?",
                            "Wie lange danach wird ein Tracking-Treffer für {ea} noch gezählt?",
                        ),
                        (
                            "Verantwortlich für das Modell ist {p2}.",
                            "Wer ist für das {e}-Modell verantwortlich?",
                            "Wen frage ich zur Tabelle, die {ea} speist?",
                        ),
                    ],
                    "Zwei Dashboards wichen im {d} um {n1} % voneinander ab.",
                    ["Neue Dashboards nur auf diesem Modell bauen."],
                ),
            ],
            "tools": [
                T(
                    "mcp__bigquery__abfrage",
                    K(
                        "reference",
                        "reference_bigquery_werkzeug",
                        "BigQuery-Werkzeug",
                        ["Parameter und Grenzen des BigQuery-MCP-Werkzeugs"],
                        [
                            (
                                "`mcp__bigquery__abfrage` nimmt `sql`, `projekt` und `max_zeilen`; Ergebnisse kommen als Liste von Objekten.",
                                "",
                                "",
                            ),
                            ("Standardprojekt ist `analytics-prod` in der EU.", "", ""),
                        ],
                        "Am {d} notiert.",
                        ["`max_zeilen` klein halten."],
                    ),
                    K(
                        "feedback",
                        "feedback_bigquery_werkzeug_kosten",
                        "BigQuery-Werkzeug: Kostenfalle",
                        ["Das BigQuery-Werkzeug rechnet den ganzen Scan ab, auch mit LIMIT"],
                        [
                            (
                                "Vorsicht: das BigQuery-Werkzeug rechnet den kompletten Tabellenscan ab, auch wenn die Abfrage ein LIMIT hat.",
                                "",
                                "",
                            ),
                            ("Eine explorative Abfrage kostete am {d} {n3} Euro.", "", ""),
                        ],
                        "LIMIT wirkt erst nach dem Scan.",
                        ["Zuerst auf die Partitionsspalte filtern."],
                    ),
                    [
                        "Hol mir die Seitenaufrufe pro Tag aus der Ereignistabelle für die letzten zwei Jahre.",
                        "Zeig mir zehn Beispielzeilen aus dem rohen Klickstrom.",
                    ],
                )
            ],
        },
        "research": {
            "entities": [
                ("ironie", "versteckter Spott"),
                ("dialekte", "regionale Mundarten"),
                ("arztbriefe", "klinische Texte"),
                ("gedichte", "Lyrik"),
                ("podcasts", "gesprochene Sendungen"),
                ("gesetze", "Rechtstexte"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_annotation",
                    "Annotationsstudie {e}",
                    [
                        "Stand der Annotationsstudie zu {e}: Richtlinien, Annotatoren, Übereinstimmung",
                        "{e}-Annotation",
                    ],
                    [
                        (
                            "In der Studie zu {e} annotieren {n1} Personen {n4} Beispiele nach Richtlinie {v}.",
                            "Wie viele Annotatoren arbeiten an der Studie zu {e}?",
                            "Wie viele Leute markieren Beispiele zu {ea}?",
                        ),
                        (
                            "Krippendorffs Alpha liegt nach Runde zwei bei 0,{n2}.",
                            "Wie hoch ist die Übereinstimmung in der Studie zu {e}?",
                            "Wie einig sind sich die Markierenden bei {ea} bisher?",
                        ),
                        (
                            "Die Verträge der Hilfskräfte betreut {p}.",
                            "Wer betreut die Verträge der Annotatoren für {e}?",
                            "Wer kümmert sich um die Bezahlung der Leute, die {ea} markieren?",
                        ),
                    ],
                    "Die Ethikkommission wollte im {d} jede Richtlinienänderung nachvollziehen.",
                    ["Richtlinien in git versionieren."],
                ),
                K(
                    "feedback",
                    "feedback_{e}_reproduzierbarkeit",
                    "Reproduzierbarkeit {e}",
                    [
                        "Was jedes Ergebnis zu {e} braucht, um reproduzierbar zu sein",
                        "Reproduzierbarkeit bei {e}",
                    ],
                    [
                        (
                            "Jede berichtete Zahl zu {e} braucht Commit-Hash, Konfigurationsdatei und Seed in der Tabellenunterschrift.",
                            "Was muss jede berichtete Zahl zu {e} begleiten?",
                            "Was hängen wir an jeden Wert zu {ea}, damit andere ihn nachrechnen können?",
                        ),
                        (
                            "Berichtet werden Mittelwert und Standardabweichung über {n1} Seeds, nie der beste Lauf.",
                            "Über wie viele Seeds mitteln wir bei {e}?",
                            "Zitieren wir bei {ea} den glücklichsten Lauf oder einen Durchschnitt?",
                        ),
                    ],
                    "Ein Gutachter konnte im {d} eine Tabelle nicht nachbauen.",
                    ["`make reproduce` auf einer frischen Maschine laufen lassen."],
                ),
            ],
        },
    },
}

FR = {
    "code": "fr",
    "space": " ",
    "labels": {
        "why": "**Why :**",
        "how": "**How to apply :**",
        "update": "Correctif du {d2} :",
        "related": "Lié :",
        "sections": ["Terminé", "En cours", "Plus tard"],
    },
    "people": ["Élodie", "Bastien", "Manon", "Yanis", "Sophie", "Romain", "Léa"],
    "hosts": ["front-par-1", "api-bleue", "runner-05", "cdn-edge"],
    "filler": {
        "status": [
            "{d} — {p} a intégré #{pr} ({sha})",
            "{d} — pipeline de nuit sur {h} rouge une fois, vert au {n1}e essai",
            "{d} — chaîne d'outils passée en {v}",
            "{d} — #{pr} refusé et fermé",
            "{d} — {p2} a rangé le tableau, {n2} cartes archivées",
            "{d} — notes de rétro rédigées",
            "{d} — {n1} fils de relecture encore ouverts avec {p}",
            "{d} — le build sur {h} a pris {n2} min",
        ],
        "notes": [
            "{p} renommerait ça si on y retouche un jour.",
            "Revérifié le {d} : toujours exact.",
            "C'est du contexte, pas une tâche.",
            "Le dernier état propre est {sha}.",
            "{p2} est absente jusqu'au {d}, {p} la remplace.",
            "Chiffres recoupés avec l'export brut.",
            "Personne ne s'est plaint depuis.",
        ],
    },
    "user": [
        K(
            "user",
            "user_role",
            "Rôle de l'utilisateur",
            ["Développeur front à Nantes, travaille en TypeScript, veut des réponses courtes"],
            [
                (
                    "L'utilisateur est développeur front à Nantes et code sous WebStorm.",
                    "Quel IDE utilise l'utilisateur ?",
                    "Avec quel environnement de programmation travaille cette personne ?",
                ),
                (
                    "Il préfère les exemples en TypeScript strict, jamais en JavaScript simple.",
                    "En quel langage donner les exemples ?",
                    "Quelle syntaxe préfère-t-il dans les extraits de code ?",
                ),
            ],
            "Dit au début.",
            ["Réponses courtes."],
        )
    ],
    "log": [
        LOG(
            "project_journal_{e}",
            "Journal {d}",
            "Journal de travail du {d} : ce qui a avancé, ce qui bloque",
            "Journal {d} : revue du backlog avec {p}.",
            "L'équipe aime garder une trace écrite.",
            "Lire d'abord les points bloqués.",
        )
    ],
    "frames": [
        "Pour me remettre dans le bain : {q}",
        "{q} Je demande avant de modifier quoi que ce soit.",
    ],
    "joiners": ["{a} Et puis : {b}", "Deux petites questions — {a} {b}"],
    "none": [
        "Conseille-moi une randonnée facile près d'Annecy.",
        "Comment détartrer une machine à espresso ?",
        "Écris un haïku sur une gare la nuit.",
        "Quelle différence entre bicarbonate et levure chimique ?",
        "Quelle est la hauteur du Kilimandjaro ?",
        "Quelles plantes d'intérieur sont sans danger pour les chats ?",
        "Comment se forme un arc-en-ciel ?",
        "En quelle année est tombé le mur de Berlin ?",
    ],
    "domains": {
        "web": {
            "entities": [
                ("commandes", "les achats"),
                ("panier", "la liste d'achats du site"),
                ("fidelite", "les points de récompense"),
                ("factures", "les documents envoyés aux entreprises"),
                ("retours", "le renvoi de marchandises"),
                ("abonnements", "les formules récurrentes"),
                ("avis", "les notes des clients"),
                ("devis", "les offres de prix"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_drapeaux",
                    "Drapeaux de fonctionnalité {e}",
                    [
                        "Quels feature flags protègent le déploiement de {e} et qui peut les basculer",
                        "Flags {e}",
                    ],
                    [
                        (
                            "Le nouveau parcours {e} est derrière le flag `{e}_v2`, activé pour {n2} % du trafic connecté.",
                            "Quelle part du trafic a le flag {e}_v2 ?",
                            "Combien de visiteurs voient déjà la nouvelle version de {ea} ?",
                        ),
                        (
                            "Seuls {p} et {p2} peuvent modifier le pourcentage ; les autres ont un accès en lecture.",
                            "Qui peut changer le pourcentage du flag {e} ?",
                            "Quelles deux personnes ont le droit d'élargir l'audience de {ea} ?",
                        ),
                        (
                            "L'interrupteur d'urgence `{e}_off` renvoie vers l'ancien code ; il est mis en cache {n1} secondes.",
                            "Combien de temps l'interrupteur d'urgence {e} est-il en cache ?",
                            "Si on doit revenir immédiatement à l'ancien comportement de {ea}, en combien de temps est-ce effectif ?",
                        ),
                    ],
                    "Un flag oublié a servi le {d} une page sans prix à la moitié des clients.",
                    ["Déclarer chaque flag dans `docs/flags/{e}.md` avec un responsable."],
                    upd=(
                        "déploiement suspendu à {n2} % après un pic de tickets ; {p} décide de la reprise.",
                        "Pourquoi le déploiement de {e}_v2 est-il suspendu ?",
                        "Qui décide quand la nouvelle version de {ea} reprend son extension ?",
                    ),
                    den="Feature flags guarding the {e} rollout",
                ),
                K(
                    "feedback",
                    "feedback_{e}_cache",
                    "Cache des endpoints {e}",
                    [
                        "En-têtes de cache et règles CDN pour les endpoints {e}",
                        "Cache {e} : ce qu'il ne faut pas mettre en cache",
                    ],
                    [
                        (
                            "Les GET publics de {e} sont mis en cache au CDN pendant {n2} secondes avec `stale-while-revalidate`.",
                            "Combien de temps le CDN garde-t-il les réponses {e} ?",
                            "Pendant combien de secondes les serveurs de bord conservent-ils les réponses sur {ea} ?",
                        ),
                        (
                            "Tout ce qui dépend du cookie de session doit envoyer `Cache-Control: private`.",
                            "Quel en-tête pour les réponses {e} liées à la session ?",
                            "Qu'est-ce qui empêche un client de voir les données d'un autre pour {ea} ?",
                        ),
                    ],
                    "La fuite de panier du {d} venait d'une clé de cache partagée.",
                    ["Relire l'en-tête Vary de chaque nouvel endpoint."],
                ),
            ],
            "tools": [
                T(
                    "mcp__redis__commande",
                    K(
                        "reference",
                        "reference_outil_redis",
                        "Outil Redis MCP",
                        ["Comment appeler l'outil MCP Redis et quelles bases il voit"],
                        [
                            (
                                "`mcp__redis__commande` prend `commande` (liste de chaînes) et `db` ; la réponse est en JSON.",
                                "",
                                "",
                            ),
                            ("Les sessions sont en base {n1}.", "", ""),
                        ],
                        "Noté le {d}.",
                        ["Utiliser SCAN, pas KEYS."],
                    ),
                    K(
                        "feedback",
                        "feedback_outil_redis_flush",
                        "Outil Redis et FLUSHDB",
                        ["L'outil Redis accepte FLUSHDB en production sans confirmation"],
                        [
                            (
                                "Attention : l'outil Redis est branché sur la production et exécute FLUSHDB ou DEL sans rien demander.",
                                "",
                                "",
                            ),
                            ("Le {d}, un nettoyage a déconnecté {n4} clients.", "", ""),
                        ],
                        "Il n'y a pas d'instance de préproduction derrière cet outil.",
                        ["Commandes de lecture uniquement, sauf avec {p}."],
                    ),
                    [
                        "Vide les sessions en cache des comptes de test.",
                        "Regarde combien de compteurs de limite de débit existent en ce moment.",
                    ],
                )
            ],
        },
        "mobile": {
            "entities": [
                ("agenda", "la vue calendrier"),
                ("lecteur", "la lecture audio"),
                ("scanner", "la capture de documents"),
                ("messagerie", "la liste des messages"),
                ("reglages", "les préférences"),
                ("partage", "l'envoi aux amis"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_synchro",
                    "Synchronisation hors ligne {e}",
                    [
                        "Comment l'écran {e} se synchronise hors ligne, et les conflits connus",
                        "Synchro {e}",
                    ],
                    [
                        (
                            "Les modifications dans {e} sont mises en file dans SQLite et envoyées au retour du réseau, {n2} éléments par lot au plus.",
                            "Combien d'éléments par lot envoie la synchro {e} ?",
                            "Quand le téléphone retrouve le réseau, quelle taille ont les paquets envoyés pour {ea} ?",
                        ),
                        (
                            "Les conflits se règlent au dernier écrivain selon l'horodatage serveur, sauf les suppressions, qui gagnent toujours.",
                            "Comment sont résolus les conflits de synchro {e} ?",
                            "Si deux appareils modifient {ea} en même temps, quel changement survit ?",
                        ),
                    ],
                    "Des utilisateurs dans le métro ont perdu des modifications le {d}.",
                    ["Tester en mode avion sur un vrai appareil."],
                ),
                K(
                    "feedback",
                    "feedback_{e}_accessibilite",
                    "Accessibilité {e}",
                    ["Règles d'accessibilité pour l'écran {e}", "{e} : liste a11y"],
                    [
                        (
                            "Chaque élément cliquable de {e} a une cible d'au moins 44 × 44 points et une description.",
                            "Quelle taille minimale de cible dans {e} ?",
                            "Quelle surface doivent avoir les zones tactiles de {ea} ?",
                        ),
                        (
                            "{p} fait un passage au lecteur d'écran avant chaque version.",
                            "Qui fait le passage au lecteur d'écran pour {e} ?",
                            "Quel collègue écoute {ea} avec VoiceOver avant la sortie ?",
                        ),
                    ],
                    "Un audit du {d} a trouvé {n2} boutons sans libellé.",
                    ["Pas de bouton icône sans libellé."],
                ),
            ],
        },
    },
}

ES = {
    "code": "es",
    "space": " ",
    "labels": {
        "why": "**Motivo:**",
        "how": "**Cómo aplicarlo:**",
        "update": "Corrección {d2}:",
        "related": "Ver también:",
        "sections": ["Terminado", "En curso", "Más adelante"],
    },
    "people": ["Alba", "Rubén", "Noelia", "Iván", "Paula", "Óscar", "Elena"],
    "hosts": ["bastion-bcn", "k8s-prod", "runner-09", "dns-1"],
    "filler": {
        "status": [
            "{d} — {p} integró #{pr} ({sha})",
            "{d} — el pipeline nocturno en {h} falló una vez, verde al intento {n1}",
            "{d} — toolchain actualizada a {v}",
            "{d} — #{pr} descartado y cerrado",
            "{d} — {p2} ordenó el tablero, {n2} tarjetas archivadas",
            "{d} — notas de la retro escritas",
            "{d} — quedan {n1} hilos de revisión con {p}",
            "{d} — la build en {h} tardó {n2} min",
        ],
        "notes": [
            "{p} lo renombraría si algún día lo tocamos.",
            "Revisado otra vez el {d}: sigue siendo correcto.",
            "Esto es contexto, no una tarea.",
            "El último estado limpio es {sha}.",
            "{p2} está fuera hasta el {d}; cubre {p}.",
            "Cifras cotejadas con la exportación en bruto.",
            "Nadie se ha quejado desde entonces.",
        ],
    },
    "user": [
        K(
            "user",
            "user_rol",
            "Rol del usuario",
            ["Ingeniera de plataforma en Barcelona; le gustan los diagramas y las cifras exactas"],
            [
                (
                    "La usuaria es ingeniera de plataforma en Barcelona y usa Neovim dentro de tmux.",
                    "¿Qué editor usa la usuaria?",
                    "¿Con qué herramienta escribe código esta persona?",
                ),
                (
                    "Quiere los diagramas en Mermaid y nunca capturas de pantalla.",
                    "¿En qué formato quiere los diagramas?",
                    "¿Cómo prefiere que le dibuje la arquitectura?",
                ),
            ],
            "Lo dijo al principio.",
            ["Primero el diagrama."],
        )
    ],
    "log": [
        LOG(
            "project_bitacora_{e}",
            "Bitácora {d}",
            "Bitácora del {d}: qué avanzó y qué está bloqueado",
            "Bitácora {d}: repaso del backlog con {p}.",
            "Al equipo le gusta un rastro escrito.",
            "Leer primero lo bloqueado.",
        )
    ],
    "frames": ["Para situarme: {q}", "{q} Pregunto antes de cambiar nada."],
    "joiners": ["{a} Y otra cosa: {b}", "Dos preguntas rápidas — {a} {b}"],
    "none": [
        "Recomiéndame una ruta de senderismo fácil cerca de Granada.",
        "¿Cómo descalcifico una cafetera espresso?",
        "Escribe un haiku sobre una estación de tren de noche.",
        "¿Qué diferencia hay entre bicarbonato y levadura química?",
        "¿Cuánto mide el Kilimanjaro?",
        "¿Qué plantas de interior no son tóxicas para gatos?",
        "¿Cómo se forma un arcoíris?",
        "¿En qué año cayó el muro de Berlín?",
    ],
    "domains": {
        "infra": {
            "entities": [
                ("pasarela", "el punto de entrada público"),
                ("almacen", "el almacenamiento de objetos"),
                ("buscador", "el motor de texto completo"),
                ("colas", "el servidor de mensajes"),
                ("sso", "el inicio de sesión único"),
                ("registro", "el almacén de imágenes de contenedores"),
                ("correo", "el servidor de salida de email"),
                ("bastion", "el host de salto"),
            ],
            "kits": [
                K(
                    "reference",
                    "reference_{e}_certificados",
                    "Certificados TLS de {e}",
                    [
                        "De dónde salen los certificados de {e} y cómo se renuevan",
                        "Certificados {e}",
                    ],
                    [
                        (
                            "Los certificados de {e} los emite Let's Encrypt mediante cert-manager y se renuevan {n2} días antes de caducar.",
                            "¿Cómo se renuevan los certificados de {e}?",
                            "¿Cómo evitamos que caduquen las claves HTTPS de {ea}?",
                        ),
                        (
                            "El comodín interno no está automatizado: lo renueva {p} a mano cada año.",
                            "¿Quién renueva el certificado comodín interno de {e}?",
                            "¿Qué persona hace el paso manual anual de {ea}?",
                        ),
                        (
                            "La caducidad se vigila con la métrica `cert_days_left`; alerta por debajo de {n1} días.",
                            "¿Cómo se vigila la caducidad de los certificados de {e}?",
                            "¿Qué nos avisa antes de que se agoten las claves HTTPS de {ea}?",
                        ),
                    ],
                    "Un certificado caducado tumbó {e} {n2} minutos un domingo.",
                    ["Revisar la métrica tras cada renovación."],
                    den="TLS certificates for {e}: issuer and renewal",
                ),
                K(
                    "project",
                    "project_{e}_capacidad",
                    "Capacidad de {e}",
                    [
                        "Plan de capacidad de {e}: carga actual, margen, próxima compra",
                        "Escalado de {e}",
                    ],
                    [
                        (
                            "{e} llega a {n4} peticiones por segundo los lunes por la mañana, un {n2} % de la capacidad.",
                            "¿Cuál es el pico de carga de {e}?",
                            "¿Cuánto trabajo soporta {ea} en su peor momento?",
                        ),
                        (
                            "El autoescalado añade un nodo si la CPU pasa del {n2} % durante {n1} minutos.",
                            "¿Cuándo añade un nodo el autoescalado de {e}?",
                            "¿Con qué uso de procesador crece {ea}?",
                        ),
                    ],
                    "El Black Friday saturó {e} en {d}.",
                    ["Hacer la prueba de carga antes de cada temporada alta."],
                    upd=(
                        "la espera de escalado bajó a {n1} minutos tras el último pico.",
                        "¿Cambió la espera del autoescalado de {e}?",
                        "¿Reacciona {ea} más rápido cuando sube la carga?",
                    ),
                ),
            ],
            "tools": [
                T(
                    "mcp__terraform__aplicar",
                    K(
                        "reference",
                        "reference_herramienta_terraform",
                        "Herramienta Terraform MCP",
                        ["Cómo ejecuta la herramienta Terraform planes y aplicaciones"],
                        [
                            (
                                "`mcp__terraform__aplicar` recibe `workspace` y `dir`; con `solo_plan: true` se detiene tras el plan.",
                                "",
                                "",
                            ),
                            ("El estado vive en el bucket `tf-state`.", "", ""),
                        ],
                        "Escrito el {d}.",
                        ["Leer el plan completo."],
                    ),
                    K(
                        "feedback",
                        "feedback_terraform_autoaprueba",
                        "Terraform aprueba solo",
                        [
                            "La herramienta Terraform aplica con -auto-approve si no se pide solo el plan"
                        ],
                        [
                            (
                                "Problema conocido: la herramienta Terraform pasa `-auto-approve`, así que sin `solo_plan: true` aplica al momento, destrucciones incluidas.",
                                "",
                                "",
                            ),
                            (
                                "El {d} sustituyó una base de datos y perdimos {n2} minutos de escrituras.",
                                "",
                                "",
                            ),
                        ],
                        "Se hizo para la CI, donde se aprueba en el PR.",
                        ["Siempre primero con `solo_plan: true`."],
                    ),
                    [
                        "Añade un bucket nuevo para los logs en el workspace de staging.",
                        "Cambia el tamaño de la instancia de la base de datos de informes.",
                    ],
                )
            ],
        },
        "web": {
            "entities": [
                ("pedidos", "las compras"),
                ("perfil", "la página de datos personales"),
                ("favoritos", "los artículos guardados"),
                ("puntos", "el programa de recompensas"),
                ("devoluciones", "el envío de productos de vuelta"),
                ("impuestos", "el cálculo del IVA"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_flags",
                    "Flags de {e}",
                    [
                        "Qué feature flags protegen el despliegue de {e} y quién puede cambiarlos",
                        "Flags {e}",
                    ],
                    [
                        (
                            "El nuevo flujo de {e} está detrás del flag `{e}_v2`, activo para el {n2} % del tráfico con sesión.",
                            "¿Qué parte del tráfico tiene el flag {e}_v2?",
                            "¿Cuántos visitantes ven ya la versión nueva de {ea}?",
                        ),
                        (
                            "Solo {p} y {p2} pueden cambiar el porcentaje; el resto tiene acceso de lectura.",
                            "¿Quién puede cambiar el porcentaje del flag de {e}?",
                            "¿Qué dos personas pueden ampliar la audiencia de {ea}?",
                        ),
                    ],
                    "Un flag olvidado sirvió el {d} una página sin precios a la mitad de los clientes.",
                    ["Apuntar cada flag en `docs/flags/{e}.md` con responsable."],
                ),
                K(
                    "feedback",
                    "feedback_{e}_cache",
                    "Caché de {e}",
                    ["Cabeceras de caché y reglas del CDN para los endpoints de {e}", "Caché {e}"],
                    [
                        (
                            "Los GET públicos de {e} se guardan en el CDN {n2} segundos con `stale-while-revalidate`.",
                            "¿Cuánto tiempo guarda el CDN las respuestas de {e}?",
                            "¿Durante cuántos segundos conservan los servidores de borde lo de {ea}?",
                        ),
                        (
                            "Todo lo que dependa de la cookie de sesión debe mandar `Cache-Control: private`.",
                            "¿Qué cabecera deben mandar las respuestas de sesión de {e}?",
                            "¿Qué impide que un cliente vea los datos de otro en {ea}?",
                        ),
                    ],
                    "La fuga de cestas del {d} vino de una clave de caché compartida.",
                    ["Revisar la cabecera Vary en cada endpoint nuevo."],
                ),
            ],
        },
    },
}

JA = {
    "code": "ja",
    "space": "",
    "labels": {
        "why": "**理由:**",
        "how": "**適用方法:**",
        "update": "訂正（{d2}）:",
        "related": "参照:",
        "sections": ["済み", "進行中", "あとで"],
    },
    "people": ["山本", "中村", "小林", "加藤", "吉田", "山田"],
    "hosts": ["gpu-kyoto", "nas-home", "runner-06", "lab-srv"],
    "filler": {
        "status": [
            "{d} — {p}さんが#{pr}を取り込んだ（{sha}）",
            "{d} — {h}の夜間処理が一度失敗、{n1}回目で成功",
            "{d} — ツールを{v}に更新",
            "{d} — #{pr}は見送りでクローズ",
            "{d} — {p2}さんがボードを整理、{n2}枚アーカイブ",
            "{d} — 振り返りメモを作成",
            "{d} — {p}さんとのレビューが{n1}件残っている",
            "{d} — {h}のビルドは{n2}分",
        ],
        "notes": [
            "{p}さんはいつか名前を変えたいらしい。",
            "{d}に再確認、内容はまだ正しい。",
            "これは背景情報で、やることではない。",
            "最後にきれいだった状態は{sha}。",
            "{p2}さんは{d}まで不在、{p}さんが代理。",
            "数字は元データと突き合わせ済み。",
            "それ以来、苦情は来ていない。",
        ],
    },
    "user": [
        K(
            "user",
            "user_about",
            "ユーザーのこと",
            ["京都在住の研究者。家のこともよく相談してくる。返事は短めが好み"],
            [
                (
                    "ユーザーは京都の大学の研究者で、Emacsを使っている。",
                    "ユーザーのエディタは何？",
                    "この人が文章やコードを書くときの道具は？",
                ),
                (
                    "返事は箇条書きで短くしてほしいとのこと。",
                    "どんな形式で返事すればいい？",
                    "回答のスタイルの好みは？",
                ),
            ],
            "最初に本人が言った。",
            ["短く箇条書きで。"],
        )
    ],
    "log": [
        LOG(
            "project_worklog_{e}",
            "作業ログ {d}",
            "{d}の作業ログ：進んだこと、止まっていること",
            "{d}の作業ログ：{p}さんとバックログを確認。",
            "記録を残しておきたいので。",
            "止まっている項目から読む。",
        )
    ],
    "frames": ["念のため聞いておきたい。{q}", "{q} 変更する前に知っておきたい。"],
    "joiners": ["{a} あと、{b}", "二つ聞きたい — {a} {b}"],
    "none": [
        "初心者向けの高尾山の登山ルートを教えて。",
        "エスプレッソマシンの湯垢の取り方は？",
        "夜の駅についての俳句を作って。",
        "重曹とベーキングパウダーの違いは？",
        "キリマンジャロの高さは？",
        "猫に安全な観葉植物は？",
        "虹はどうやってできるの？",
        "ベルリンの壁が崩れたのは何年？",
    ],
    "domains": {
        "assistant": {
            "entities": [
                ("台所", "料理する場所", "kitchen"),
                ("浴室", "お風呂", "bathroom"),
                ("庭", "外の植え込み", "garden"),
                ("ベランダ", "外の物干し場", "balcony"),
                ("屋根裏", "天井の上の部屋", "attic"),
            ],
            "kits": [
                K(
                    "project",
                    "project_renovation_{e}",
                    "{e}のリフォーム",
                    ["{e}のリフォーム：見積もり、業者、日程", "{e}工事"],
                    [
                        (
                            "{e}のリフォームは業者の{p}さんの見積もりで{n3}万円、着工は{d}。",
                            "{e}のリフォームの見積もりはいくら？",
                            "{ea}を直すのにいくら掛かって、誰がやる？",
                        ),
                        (
                            "タイルは工業団地の店に注文済みで、届くのは{n1}週間後。",
                            "{e}のタイルはいつ届く？",
                            "{ea}の床材が来るまであとどれくらい？",
                        ),
                        (
                            "工事中は水道が{n1}日間止まる。近所には{d2}に伝えた。",
                            "{e}の工事で水道は何日止まる？",
                            "{ea}の作業中、蛇口が使えないのは何日？",
                        ),
                    ],
                    "前の業者は途中で投げ出したので、全部書いておく。",
                    ["支払いは三回に分ける。"],
                    upd=(
                        "許可が遅れたため着工は{d2}に延びた。",
                        "{e}のリフォームの着工日は変わった？",
                        "{ea}の作業開始は遅れている？",
                    ),
                    den="Renovation of the {e}: quote, contractor, schedule",
                ),
                K(
                    "reference",
                    "reference_clinic_{e}",
                    "{e}の通院",
                    ["定期的な{e}の予約と医院の情報", "{e}医院メモ"],
                    [
                        (
                            "{e}の定期検診は{n1}か月ごとで、次回は{d}。",
                            "次の{e}の検診はいつ？",
                            "{ea}のことで次に医者に行くのはいつ？",
                        ),
                        (
                            "保険証と紹介状を持っていくこと。写真では受け付けてもらえない。",
                            "{e}の予約に何を持っていく？",
                            "{ea}の受診に必要な書類は？",
                        ),
                    ],
                    "紹介状を忘れて予約が無駄になったことがある。",
                    ["受診後すぐ次を予約する。"],
                    entities=[
                        ("歯医者", "歯の治療", "dentist"),
                        ("眼科", "視力の相談", "eye"),
                        ("整体", "腰の体操", "physio"),
                    ],
                ),
            ],
            "tools": [
                T(
                    "mcp__calendar__create_event",
                    K(
                        "reference",
                        "reference_calendar_tool",
                        "カレンダーツールの使い方",
                        ["カレンダーMCPツールの引数と登録先"],
                        [
                            (
                                "`mcp__calendar__create_event`は`title`、`start`、`end`を受け取り、家族共有カレンダーに登録する。",
                                "",
                                "",
                            ),
                            ("時刻はISO形式で渡す。", "", ""),
                        ],
                        "{d}に設定したときのメモ。",
                        ["終了時刻も必ず指定。"],
                    ),
                    K(
                        "feedback",
                        "feedback_calendar_tool_timezone",
                        "カレンダーツールの時差の罠",
                        ["カレンダーツールはタイムゾーン無しの時刻をUTCとして登録する"],
                        [
                            (
                                "注意：カレンダーツールはタイムゾーンの無い時刻をUTCとして扱うので、日本時間の予定が9時間ずれる。",
                                "",
                                "",
                            ),
                            ("{d}にこれで歯医者の予約を逃した。", "", ""),
                        ],
                        "ツール側の既定値が変えられない。",
                        ["時刻には必ず`+09:00`を付ける。"],
                    ),
                    [
                        "来週火曜の午後三時に美容院の予定を入れて。",
                        "土曜の朝十時から家族で買い物の予定を登録して。",
                    ],
                )
            ],
        },
        "research": {
            "entities": [
                ("方言", "地域ごとの話し方", "dialect"),
                ("皮肉", "遠回しな嫌味", "irony"),
                ("要約", "短くまとめた文章", "summary"),
                ("カルテ", "診療の記録", "clinical"),
                ("俳句", "五七五の詩", "haiku"),
                ("判例", "裁判の記録", "caselaw"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_annotation",
                    "{e}アノテーション調査",
                    [
                        "{e}のアノテーション調査の状況：ガイドライン、作業者、一致率",
                        "{e}ラベル付け",
                    ],
                    [
                        (
                            "{e}の調査では{n1}人の作業者が{n4}件にガイドライン{v}でラベルを付けている。",
                            "{e}の調査に作業者は何人？",
                            "{ea}の例に印を付けている人は何人いる？",
                        ),
                        (
                            "二巡目の後のクリッペンドルフのαは0.{n2}。",
                            "{e}の調査の一致率は？",
                            "{ea}について作業者同士の判断はどのくらい揃っている？",
                        ),
                        (
                            "作業者の契約は{p}さんが担当している。",
                            "{e}の作業者の契約担当は誰？",
                            "{ea}の印付けをする人への支払いは誰が扱う？",
                        ),
                    ],
                    "{d}に倫理委員会からガイドライン変更の記録を求められた。",
                    ["ガイドラインはgitで管理する。"],
                ),
                K(
                    "feedback",
                    "feedback_{e}_reproducibility",
                    "{e}実験の再現性",
                    ["{e}の結果を再現可能にするために必要なもの", "{e}再現性ルール"],
                    [
                        (
                            "{e}の数値には必ずコミットハッシュ、設定ファイル、シードを表のキャプションに書く。",
                            "{e}の数値に必ず添えるものは？",
                            "{ea}のスコアを他人が再計算できるよう何を付ける？",
                        ),
                        (
                            "結果は{n1}個のシードの平均と標準偏差で報告し、最良の回は使わない。",
                            "{e}の結果は何個のシードで平均する？",
                            "{ea}では一番運の良い回を載せる？それとも平均？",
                        ),
                    ],
                    "{d}に査読者が表を再現できず不採択になった。",
                    ["きれいな環境で`make reproduce`を実行する。"],
                ),
            ],
        },
    },
}

ZH = {
    "code": "zh",
    "space": "",
    "labels": {
        "why": "**原因：**",
        "how": "**做法：**",
        "update": "更正（{d2}）：",
        "related": "参见：",
        "sections": ["已完成", "处理中", "以后再说"],
    },
    "people": ["赵敏", "孙浩", "周婷", "吴强", "郑洁", "黄磊"],
    "hosts": ["hz-app-02", "mac-build", "runner-12", "sz-cdn"],
    "filler": {
        "status": [
            "{d} — {p}合入了#{pr}（{sha}）",
            "{d} — {h}上的夜间流水线失败一次，第{n1}次重试通过",
            "{d} — 工具链升级到{v}",
            "{d} — #{pr}不做，已关闭",
            "{d} — {p2}整理了看板，归档{n2}张卡片",
            "{d} — 写了复盘记录",
            "{d} — 和{p}还有{n1}个评审讨论没结",
            "{d} — {h}上构建用了{n2}分钟",
        ],
        "notes": [
            "{p}说以后有机会要改个名字。",
            "{d}又核对了一次，内容仍然正确。",
            "这是背景信息，不是待办。",
            "最后一个干净的状态是{sha}。",
            "{p2}到{d}都不在，由{p}代理。",
            "数字和原始导出对过了。",
            "之后再没有人抱怨过。",
        ],
    },
    "user": [
        K(
            "user",
            "user_about",
            "关于用户",
            ["深圳的移动端负责人，喜欢看图，回答要直接"],
            [
                (
                    "用户是深圳一家公司的移动端负责人，用Android Studio和Xcode。",
                    "用户用哪些IDE？",
                    "这个人写代码用什么软件？",
                ),
                (
                    "回答要先给结论，再给理由，不要寒暄。",
                    "回答应该怎么组织？",
                    "给这个人写回复时先说什么？",
                ),
            ],
            "最初的会话里说的。",
            ["先结论后理由。"],
        )
    ],
    "log": [
        LOG(
            "project_worklog_{e}",
            "工作日志 {d}",
            "{d}的工作日志：推进了什么，卡在哪里",
            "{d}工作日志：和{p}过了一遍待办。",
            "团队希望留下书面记录。",
            "先看卡住的事项。",
        )
    ],
    "frames": ["先确认个背景：{q}", "{q} 改之前想先问清楚。"],
    "joiners": ["{a} 还有，{b}", "两个小问题——{a} {b}"],
    "none": [
        "推荐一条适合新手的黄山徒步路线。",
        "意式咖啡机怎么除水垢？",
        "写一首关于夜晚火车站的俳句。",
        "小苏打和泡打粉有什么区别？",
        "乞力马扎罗山有多高？",
        "哪些室内植物对猫是安全的？",
        "彩虹是怎么形成的？",
        "柏林墙是哪一年倒的？",
    ],
    "domains": {
        "mobile": {
            "entities": [
                ("笔记", "随手记的页面", "notes"),
                ("日历", "日程视图", "calendar"),
                ("播放器", "音频播放", "player"),
                ("扫描", "拍文档", "scanner"),
                ("消息", "收件列表", "inbox"),
                ("设置", "偏好选项", "settings"),
                ("分享", "发给朋友", "sharing"),
                ("动态", "首页时间线", "feed"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_offline_sync",
                    "{e}离线同步",
                    ["{e}页面离线时怎么同步，以及已知的冲突", "{e}同步设计"],
                    [
                        (
                            "{e}里的修改先排进SQLite队列，联网后再推送，每批最多{n2}条。",
                            "{e}同步每批推送多少条？",
                            "手机重新联网后，{ea}的数据按多大一包发出去？",
                        ),
                        (
                            "冲突按服务器时间戳以最后写入为准，但删除操作永远优先。",
                            "{e}同步冲突怎么解决？",
                            "两台设备同时改{ea}，谁的改动留下来？",
                        ),
                        (
                            "队列上限是{n4}条，超过后丢弃最旧的并弹出提示。",
                            "{e}离线队列上限是多少？",
                            "{ea}积压多少条未发送的改动就会开始丢？",
                        ),
                    ],
                    "{d}有用户在地铁里丢了修改，因为队列只在内存里。",
                    ["用真机开飞行模式测试。"],
                    upd=(
                        "删除不再总是优先：{n2}秒内更新的编辑会胜过删除（PR #{pr}）。",
                        "{e}同步里删除还是永远优先吗？",
                        "在一台设备上删掉东西，还能压过别处对{ea}的编辑吗？",
                    ),
                    den="Offline sync of the {e} screen and known conflicts",
                ),
                K(
                    "feedback",
                    "feedback_{e}_accessibility",
                    "{e}无障碍",
                    ["{e}页面的无障碍规则", "{e}无障碍检查"],
                    [
                        (
                            "{e}里每个可点的元素至少44×44点，并且要有内容描述。",
                            "{e}里点击区域最小多大？",
                            "{ea}上的触摸范围要做多大？",
                        ),
                        (
                            "每次发版前由{p}用读屏软件走一遍。",
                            "谁负责{e}的读屏检查？",
                            "发版前谁用VoiceOver把{ea}听一遍？",
                        ),
                    ],
                    "{d}的审查发现{n2}个按钮没有标签。",
                    ["不允许只有图标没有标签的按钮。"],
                ),
            ],
            "tools": [
                T(
                    "mcp__appstore__upload",
                    K(
                        "reference",
                        "reference_appstore_tool",
                        "应用商店上传工具",
                        ["应用商店MCP工具的调用方式：渠道、包路径、说明"],
                        [
                            (
                                "`mcp__appstore__upload`接收`bundle`、`track`和`notes`三个参数。",
                                "",
                                "",
                            ),
                            ("渠道有`internal`、`beta`和`production`。", "", ""),
                        ],
                        "{d}记录。",
                        ["先传internal。"],
                    ),
                    K(
                        "feedback",
                        "feedback_appstore_tool_track",
                        "上传工具默认发正式版",
                        ["应用商店上传工具不填渠道时直接发到正式版"],
                        [
                            (
                                "小心：不填`track`时，上传工具会直接发布到正式渠道，而且是全量。",
                                "",
                                "",
                            ),
                            ("{d}一个调试包因此给所有用户推了{n2}分钟。", "", ""),
                        ],
                        "默认值来自一个没人敢动的旧脚本。",
                        ["永远写上`track: internal`。"],
                    ),
                    [
                        "把新包传上去给测试同学试一下。",
                        "把构建{n4}推到商店给QA组。",
                    ],
                )
            ],
        },
        "web": {
            "entities": [
                ("订单", "买东西的记录", "orders"),
                ("会员积分", "奖励点数", "loyalty"),
                ("发票", "开给企业的票据", "invoices"),
                ("退货", "把货寄回去", "returns"),
                ("客服", "在线支持", "helpdesk"),
                ("报价", "给企业客户的价格", "quotes"),
            ],
            "kits": [
                K(
                    "project",
                    "project_{e}_flags",
                    "{e}功能开关",
                    ["哪些功能开关控制{e}的上线，谁能切换", "{e}开关清单"],
                    [
                        (
                            "新版{e}流程在开关`{e}_v2`后面，目前对{n2}%的登录流量打开。",
                            "{e}_v2开关开了多少流量？",
                            "已经有多少访客看到新版{ea}？",
                        ),
                        (
                            "只有{p}和{p2}能改比例，其他人只读。",
                            "谁能改{e}开关的比例？",
                            "哪两个人可以扩大{ea}的受众？",
                        ),
                    ],
                    "{d}一个被遗忘的开关让一半顾客看到了没有价格的页面。",
                    ["每个开关都写进`docs/flags/`并注明负责人。"],
                ),
                K(
                    "feedback",
                    "feedback_{e}_cache",
                    "{e}接口缓存",
                    ["{e}接口的缓存头和CDN规则", "{e}缓存注意事项"],
                    [
                        (
                            "{e}的公开GET接口在CDN缓存{n2}秒，带`stale-while-revalidate`。",
                            "CDN缓存{e}接口多久？",
                            "边缘节点会把{ea}的响应留多少秒？",
                        ),
                        (
                            "凡是依赖会话cookie的响应必须发`Cache-Control: private`。",
                            "{e}里和会话相关的响应要发什么头？",
                            "怎么防止一个顾客看到另一个人在{ea}里的数据？",
                        ),
                    ],
                    "{d}的购物车泄露就是因为共享了缓存键。",
                    ["每个新接口都检查Vary头。"],
                ),
            ],
        },
    },
}

KO = {
    "code": "ko",
    "space": " ",
    "labels": {
        "why": "**이유:**",
        "how": "**적용 방법:**",
        "update": "정정 ({d2}):",
        "related": "참고:",
        "sections": ["끝남", "진행 중", "나중에"],
    },
    "people": ["윤서준", "한지민", "오세훈", "신예린", "장우진", "임수아"],
    "hosts": ["dwh-seoul", "gpu-02", "runner-08", "k8s-main"],
    "filler": {
        "status": [
            "{d} — {p}님이 #{pr} 반영 ({sha})",
            "{d} — {h} 야간 파이프라인 한 번 실패, {n1}번째 재시도에 통과",
            "{d} — 툴체인 {v}로 업데이트",
            "{d} — #{pr} 안 하기로 하고 닫음",
            "{d} — {p2}님이 보드 정리, 카드 {n2}장 보관",
            "{d} — 회고 메모 작성",
            "{d} — {p}님과 리뷰 스레드 {n1}개 남음",
            "{d} — {h} 빌드 {n2}분",
        ],
        "notes": [
            "{p}님은 언젠가 이름을 바꾸고 싶어 한다.",
            "{d}에 다시 확인했는데 여전히 맞다.",
            "이건 배경 설명이지 할 일이 아니다.",
            "마지막 깨끗한 상태는 {sha}.",
            "{p2}님은 {d}까지 자리에 없고 {p}님이 대신한다.",
            "숫자는 원본 내보내기와 대조했다.",
            "그 뒤로 불만은 없었다.",
        ],
    },
    "user": [
        K(
            "user",
            "user_about",
            "사용자에 대해",
            ["판교의 데이터 엔지니어, SQL에 강하고 짧은 답을 좋아함"],
            [
                (
                    "사용자는 판교에서 일하는 데이터 엔지니어이고 DataGrip과 VS Code를 쓴다.",
                    "사용자는 어떤 도구를 써?",
                    "이 사람이 쿼리를 짤 때 쓰는 프로그램은?",
                ),
                (
                    "답은 표로 정리해 주는 걸 좋아한다.",
                    "답을 어떤 형식으로 줘야 해?",
                    "결과를 보여 줄 때 선호하는 모양은?",
                ),
            ],
            "처음 세션에서 말했다.",
            ["표로 정리."],
        )
    ],
    "log": [
        LOG(
            "project_worklog_{e}",
            "작업 일지 {d}",
            "{d} 작업 일지: 진척과 막힌 것",
            "{d} 작업 일지: {p}님과 백로그 검토.",
            "팀이 기록을 원한다.",
            "막힌 항목부터 읽기.",
        )
    ],
    "frames": ["먼저 배경부터 확인할게. {q}", "{q} 바꾸기 전에 물어보는 거야."],
    "joiners": ["{a} 그리고 {b}", "간단히 두 가지 — {a} {b}"],
    "none": [
        "초보자에게 맞는 북한산 등산 코스 추천해 줘.",
        "에스프레소 머신 석회 제거는 어떻게 해?",
        "밤 기차역에 대한 하이쿠를 써 줘.",
        "베이킹소다와 베이킹파우더 차이가 뭐야?",
        "킬리만자로 높이는 얼마야?",
        "고양이에게 안전한 실내 식물은?",
        "무지개는 어떻게 생겨?",
        "베를린 장벽은 몇 년에 무너졌어?",
    ],
    "domains": {
        "data": {
            "entities": [
                ("홈화면", "첫 화면", "home"),
                ("장바구니", "담아 둔 상품", "cart"),
                ("가격표", "요금 비교 페이지", "pricing"),
                ("추천", "제안 상품", "recs"),
                ("뉴스레터", "주간 메일", "newsletter"),
                ("무료배송", "배송비 없음", "freeship"),
                ("체험판", "맛보기 기간", "trial"),
                ("친구초대", "지인 소개", "referral"),
            ],
            "kits": [
                K(
                    "feedback",
                    "feedback_{e}_experiments",
                    "{e} 실험 분석",
                    ["{e}의 A/B 테스트를 분석하는 방법과 결과를 인정하는 기준", "{e} 실험 규칙"],
                    [
                        (
                            "{e} 테스트는 요일 효과가 상쇄되도록 최소 {n1}주 동안 돌린다.",
                            "{e} 테스트는 얼마나 오래 돌려야 해?",
                            "{ea} 비교 실험의 최소 기간은?",
                        ),
                        (
                            "주요 지표는 방문자당 매출이고, 전환율만 봤다가 {n2}% 착각한 적이 있다.",
                            "{e} 테스트의 주요 지표는?",
                            "{ea} 변형 중 승자를 정하는 숫자는 뭐야?",
                        ),
                        (
                            "표본 비율 불일치가 0.{n1}%를 넘으면 무효이고, 분석 전에 {p}님이 확인한다.",
                            "{e} 테스트는 언제 표본 비율 불일치로 무효가 돼?",
                            "{ea}에서 그룹 크기가 안 맞으면 언제 결과를 버려?",
                        ),
                    ],
                    "{d}에 일찍 멈춘 테스트가 분기 내내 손해 보는 안을 승자로 뽑았다.",
                    ["지표는 테스트 문서에 미리 적는다."],
                    upd=(
                        "연말 시즌에 두 테스트가 왜곡된 뒤 최소 기간을 {n1}주로 늘렸다.",
                        "{e} 테스트 최소 기간이 바뀌었어?",
                        "{ea} 비교는 이제 더 오래 돌려야 해?",
                    ),
                    den="How A/B tests on {e} are analysed",
                ),
                K(
                    "project",
                    "project_{e}_dbt",
                    "{e} 데이터 모델",
                    ["{e} 리포트 뒤의 dbt 모델: 소스, 단위, 갱신", "{e} dbt 메모"],
                    [
                        (
                            "dbt 모델 `fct_{e}`는 세션당 한 행이고 {n1}시간마다 다시 빌드된다.",
                            "fct_{e}의 단위는?",
                            "{ea} 리포트 테이블의 한 줄은 무엇을 뜻해?",
                        ),
                        (
                            "{n2}시간까지 늦게 온 이벤트는 증분으로 합친다.",
                            "fct_{e}에는 얼마나 늦은 이벤트까지 들어가?",
                            "{ea} 추적 기록은 얼마나 지나서까지 집계돼?",
                        ),
                    ],
                    "{d}에 두 대시보드 숫자가 {n1}% 달랐다.",
                    ["새 대시보드는 이 모델로만 만든다."],
                ),
            ],
            "tools": [
                T(
                    "mcp__warehouse__query",
                    K(
                        "reference",
                        "reference_warehouse_tool",
                        "웨어하우스 도구 사용법",
                        ["웨어하우스 MCP 도구의 인자와 제한"],
                        [
                            (
                                "`mcp__warehouse__query`는 `sql`과 `max_rows`를 받고 결과를 JSON 배열로 돌려준다.",
                                "",
                                "",
                            ),
                            ("기본 스키마는 `analytics`다.", "", ""),
                        ],
                        "{d}에 적음.",
                        ["`max_rows`를 작게."],
                    ),
                    K(
                        "feedback",
                        "feedback_warehouse_tool_cost",
                        "웨어하우스 도구 비용 함정",
                        ["웨어하우스 도구는 LIMIT이 있어도 전체 스캔 비용을 청구한다"],
                        [
                            (
                                "주의: 웨어하우스 도구는 쿼리에 LIMIT이 있어도 테이블 전체 스캔 비용이 나간다.",
                                "",
                                "",
                            ),
                            ("{d}에 탐색용 쿼리 하나가 {n3}만 원 나왔다.", "", ""),
                        ],
                        "LIMIT은 스캔 뒤에 적용된다.",
                        ["파티션 컬럼부터 거른다."],
                    ),
                    [
                        "이벤트 테이블에서 최근 2년 일별 페이지뷰 수 뽑아 줘.",
                        "원본 클릭스트림 테이블 예시 행 10개 보여 줘.",
                    ],
                )
            ],
        },
        "infra": {
            "entities": [
                ("게이트웨이", "공개 진입점", "gateway"),
                ("빌드팜", "컴파일 머신", "buildfarm"),
                ("오브젝트스토리지", "파일 저장소", "objectstore"),
                ("검색클러스터", "전문 검색 엔진", "searchcluster"),
                ("메시지브로커", "큐 서버", "broker"),
                ("위키", "사내 문서 사이트", "wiki"),
            ],
            "kits": [
                K(
                    "reference",
                    "reference_{e}_certs",
                    "{e} TLS 인증서",
                    ["{e} 인증서 발급처와 갱신 방식", "{e} 인증서"],
                    [
                        (
                            "{e} 인증서는 cert-manager를 통해 Let's Encrypt가 발급하고 만료 {n2}일 전에 갱신된다.",
                            "{e} 인증서는 어떻게 갱신돼?",
                            "{ea}의 HTTPS 키가 만료되지 않게 하는 방법은?",
                        ),
                        (
                            "내부 와일드카드는 자동화가 안 돼서 {p}님이 매년 손으로 갱신한다.",
                            "{e} 내부 와일드카드 인증서는 누가 갱신해?",
                            "{ea}의 연 1회 수동 작업은 누가 해?",
                        ),
                    ],
                    "만료된 인증서 때문에 일요일에 {e}가 {n2}분 동안 멈췄다.",
                    ["갱신 후 지표를 확인한다."],
                ),
                K(
                    "feedback",
                    "feedback_{e}_costs",
                    "{e} 클라우드 비용",
                    ["{e} 비용 규칙: 예산, 태그, 피해야 할 것", "{e} 지출"],
                    [
                        (
                            "{e}의 월 예산은 {n4}만 원이고 {n2}%에 도달하면 #finops로 알림이 간다.",
                            "{e}의 월 예산은 얼마야?",
                            "{ea}에 한 달에 얼마까지 써도 돼?",
                        ),
                        (
                            "모든 리소스에 `team`, `cost-centre` 태그가 필요하고, 없으면 {n1}일 뒤 삭제된다.",
                            "{e} 리소스에 필요한 태그는?",
                            "{ea} 클라우드 자원이 지워지지 않으려면 어떤 라벨이 있어야 해?",
                        ),
                    ],
                    "잊힌 테스트 클러스터가 한 달에 {n4}만 원을 썼다.",
                    ["생성할 때 태그를 단다."],
                    upd=(
                        "리전 간 트래픽이 청구서의 {n2}%까지 올라가서 경보 기준을 낮췄다.",
                        "{e} 비용 경보 기준이 바뀌었어?",
                        "{ea} 청구서에서 지역 간 전송이 얼마나 차지해?",
                    ),
                ),
            ],
        },
    },
}

INTL = {"de": DE, "fr": FR, "es": ES, "ja": JA, "zh": ZH, "ko": KO}
