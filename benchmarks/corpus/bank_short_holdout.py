"""Short-memory bank of the HOLDOUT corpus (twentieth session). Every sentence written for memdir_nb.

The same shapes as bank_short_tune.py (short memories, two-to-five-word questions, English and
Russian) with other topics, entities and wordings. Never tuned on.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from short_dirs import S

EN_KITS = [
    S(
        "project",
        "project_{e}_hosting_move",
        "{E} hosting move",
        ["{E} leaves the managed platform for rented servers"],
        [
            (
                "{E} moves to the rented servers on {d}; DNS switches at 06:00 UTC.",
                "{e} move date?",
                "{ea} provider change when?",
            ),
            (
                "The old platform stays paid until {d2} as a fallback.",
                "{e} old platform until?",
                "previous {ea} home kept until?",
            ),
        ],
        why="the managed bill tripled after the free tier ended.",
        how="no new managed add-ons for {e}.",
    ),
    S(
        "reference",
        "reference_{e}_alert",
        "{E} error alert",
        ["When the {e} error alert pages"],
        [
            (
                "The {e} alert pages when 5xx stays above {n1}% for {n2} minutes.",
                "{e} alert threshold?",
                "{ea} wakes someone when?",
            ),
            (
                "It routes to the #ops-{e} channel and to {p}'s phone.",
                "{e} alert destination?",
                "where do {ea} pages go?",
            ),
        ],
    ),
    S(
        "feedback",
        "feedback_{e}_approvals",
        "{E} merge approvals",
        ["Review rule for {e} pull requests"],
        [
            (
                "Merges into {e} need two approvals, and {p} must be one of them.",
                "{e} approvals needed?",
                "{ea} reviewers needed?",
            ),
            (
                "Self-approval through the admin button is off limits.",
                "{e} admin merge ok?",
                "bypass {ea} review?",
            ),
        ],
        why="an unreviewed change in {d} dropped a week of rows.",
    ),
    S(
        "project",
        "project_{e}_cache_ttl",
        "{E} cache TTL",
        ["How long {e} keeps answers cached"],
        [
            (
                "The {e} cache TTL went down to {n2} seconds after stale-price complaints.",
                "{e} cache TTL?",
                "{ea} data kept warm?",
            ),
            (
                "Purging by hand is `redis-cli DEL {e}:*` on {h}.",
                "{e} cache purge command?",
                "wipe stored {ea} answers?",
            ),
        ],
    ),
    S(
        "reference",
        "reference_{e}_vendor",
        "{E} vendor contact",
        ["Supplier contact for {e} problems"],
        [
            (
                "The {e} supplier contact is {p2}; tickets get the prefix V-{n3}.",
                "{e} vendor contact?",
                "{ea} supplier person?",
            ),
            (
                "Their support answers within {n1} working hours, not on weekends.",
                "{e} vendor response time?",
                "{ea} supplier reply speed?",
            ),
        ],
    ),
    S(
        "project",
        "project_{e}_log_retention",
        "{E} log retention",
        ["How long {e} logs are kept"],
        [
            (
                "{E} logs are kept {n2} days in hot storage, then a year in the cold bucket.",
                "{e} log retention?",
                "{ea} history kept how long?",
            ),
            (
                "The cold bucket is `logs-archive-{e}` in eu-central.",
                "{e} cold bucket name?",
                "old {ea} records where?",
            ),
        ],
        how="ask legal before shortening it.",
    ),
    S(
        "reference",
        "reference_{e}_backups",
        "{E} backups",
        ["Nightly copies of {e} data"],
        [
            (
                "{E} backups run nightly at 02:{n2} to the `bk-{e}` bucket.",
                "{e} backup time?",
                "{ea} nightly copy time?",
            ),
            (
                "A restore drill is due every quarter; {p} ran the last one on {d}.",
                "last {e} restore drill?",
                "{ea} recovery rehearsal?",
            ),
        ],
    ),
    S(
        "feedback",
        "feedback_{e}_batch_size",
        "{E} batch size",
        ["Chunk size rule for {e} jobs"],
        [
            (
                "Keep {e} jobs under {n4} rows per chunk; bigger ones hit the worker timeout.",
                "{e} max chunk rows?",
                "{ea} slice size limit?",
            ),
            (
                "Between chunks sleep {n1} seconds so replicas keep up.",
                "{e} pause between chunks?",
                "{ea} gap between slices?",
            ),
        ],
        why="a single huge job in {d} stalled replication for an hour.",
    ),
    S(
        "project",
        "project_{e}_pg_version",
        "{E} Postgres version",
        ["Database version {e} is pinned to"],
        [
            (
                "{E} stays on Postgres 1{n1} until the extension it uses supports the next major.",
                "{e} Postgres version?",
                "{ea} database release?",
            ),
            (
                "The upgrade ticket is DB-{n3}, owned by {p2}.",
                "{e} upgrade ticket?",
                "{ea} upgrade owner?",
            ),
        ],
    ),
    S(
        "reference",
        "reference_{e}_demo_login",
        "{E} demo login",
        ["Demo account for showing {e} to customers"],
        [
            (
                "The {e} demo login is demo-{port}@example.test; its password sits in the Demos vault.",
                "{e} demo login?",
                "account for showing {ea}?",
            ),
            (
                "Demo data is wiped every Sunday night.",
                "{e} demo data reset?",
                "showcase {ea} cleaned when?",
            ),
        ],
    ),
    S(
        "project",
        "project_{e}_rate_limit",
        "{E} rate limit",
        ["Request quota of the {e} API"],
        [
            (
                "The {e} API allows {n3} requests per minute per key.",
                "{e} rate limit?",
                "{ea} calls per minute?",
            ),
            (
                "Partners on the gold plan get {n4} instead.",
                "{e} gold plan quota?",
                "{ea} top customers allowance?",
            ),
        ],
    ),
    S(
        "feedback",
        "feedback_{e}_branch_names",
        "{E} branch names",
        ["Naming rule for {e} branches"],
        [
            (
                "{E} branch names start with the ticket number, like `{e}/T-{n3}-short-title`.",
                "{e} branch naming?",
                "naming new {ea} work?",
            ),
            (
                "Branches older than {n2} days get deleted by a bot.",
                "{e} stale branches deleted?",
                "forgotten {ea} work fate?",
            ),
        ],
    ),
    S(
        "project",
        "project_{e}_review_meeting",
        "{E} weekly review",
        ["When the {e} team meets to review"],
        [
            (
                "The {e} review is on Thursdays at {n1} pm, run by {p}.",
                "{e} review meeting time?",
                "{ea} group sits when?",
            ),
            (
                "Agenda items go into the shared doc by Wednesday noon.",
                "{e} agenda deadline?",
                "{ea} topics due by?",
            ),
        ],
    ),
]

EN_ENTITIES = [
    ("payroll", "salaries"),
    ("inbox", "helpdesk"),
    ("maps", "routing"),
    ("export", "dumps"),
    ("forum", "community"),
    ("wallet", "credit"),
    ("tickets", "passes"),
    ("gateway", "edge"),
    ("chat", "messaging"),
    ("photos", "imagery"),
    ("quotes", "offers"),
]

EN_NOTES = [
    S(
        "project",
        "worklog_{e}",
        "Worklog {d}",
        ["Raw worklog entry"],
        [("Worklog {d}: looked at a slow query on {h} with {p2}; left it for later.", "", "")],
    ),
    S(
        "project",
        "sync_{e}",
        "Sync notes {d}",
        ["Notes from a team sync"],
        [("Sync {d}: {p} back from leave, {n1} tickets closed, retro moved.", "", "")],
    ),
]

EN_USER = [
    S(
        "user",
        "user_profile",
        "About the user",
        ["The user: data analyst turned developer, likes examples"],
        [
            (
                "Former data analyst, now writes services; likes a worked example before theory.",
                "how to explain things?",
                "teaching style this person likes?",
            ),
            (
                "Based in Lisbon, online mostly in the afternoon.",
                "where is the user based?",
                "this person's city?",
            ),
        ],
    ),
]

EN = {
    "code": "en",
    "space": " ",
    "labels": {"why": "**Why:**", "how": "**How to apply:**"},
    "people": ["Iris", "Jonas", "Kemal", "Lena", "Marta", "Nuno", "Omar"],
    "hosts": ["app-2", "queue-1", "us-east-db", "runner-9"],
    "entities": EN_ENTITIES,
    "kits": EN_KITS,
    "user": EN_USER,
    "notes": EN_NOTES,
    "context": [
        "Written down on {d} after talking to {p}.",
        "Agreed in the planning call of {d}.",
        "Thread in #eng from {d}.",
        "Double-checked by {p2} recently.",
        "Issue: ENG-{n3}.",
        "An earlier version of this note was wrong about the details and got rewritten.",
        "{p2} asked to be told before anyone touches it, even on a branch.",
        "The wiki page on this is older and contradicts it in places; trust this one.",
        "Revisit when the platform roadmap is next updated, probably next quarter.",
        "When unsure, post in the engineering channel; someone usually replies within the hour.",
        "New starters get pointed here from the first-week checklist.",
        "Several options were weighed in the design doc; this one won on cost.",
    ],
    "none": [
        "gym membership discount?",
        "cafeteria menu today?",
        "company swag order?",
        "bike storage rules?",
        "travel expense limit?",
        "intern onboarding buddy?",
        "meeting room booking?",
        "annual party theme?",
        "podcast recording gear?",
        "visa letter template?",
        "Terraform state locking?",
    ],
    "joiners": ["{a} Plus {b}", "{a} And also {b}"],
}

RU_KITS = [
    S(
        "reference",
        "reference_{e}_alert",
        "Алерт «{E}»",
        ["Когда срабатывает алерт по «{e}»"],
        [
            (
                "Алерт «{e}» будит дежурного, если 5xx выше {n1}% дольше {n2} минут.",
                "порог алерта «{e}»?",
                "{ea}: когда поднимает людей?",
            ),
            (
                "Уведомления идут в канал #ops и на телефон {p}.",
                "куда шлёт алерт «{e}»?",
                "{ea}: получатели тревог?",
            ),
        ],
    ),
    S(
        "project",
        "project_{e}_logi",
        "Логи «{E}»",
        ["Сколько хранятся логи «{e}»"],
        [
            (
                "Логи «{e}» лежат {n2} дней в горячем хранилище, потом год в архиве.",
                "сколько хранятся логи «{e}»?",
                "{ea}: срок жизни истории?",
            ),
            (
                "Архивный бакет — `logs-archive` в eu-central.",
                "архив логов «{e}»?",
                "{ea}: куда уезжают старые записи?",
            ),
        ],
        how="сокращать срок только после юристов.",
    ),
    S(
        "reference",
        "reference_{e}_bekapy",
        "Бэкапы «{E}»",
        ["Ночные копии данных «{e}»"],
        [
            (
                "Бэкапы «{e}» снимаются каждую ночь в 02:{n2} в бакет `bk-main`.",
                "время бэкапа «{e}»?",
                "{ea}: ночное копирование когда?",
            ),
            (
                "Учения по восстановлению раз в квартал, последние проводил {p} {d}.",
                "последнее восстановление «{e}»?",
                "{ea}: кто репетировал возврат?",
            ),
        ],
    ),
    S(
        "project",
        "project_{e}_kesh",
        "Кеш «{E}»",
        ["Сколько «{e}» держит ответы в кеше"],
        [
            (
                "TTL кеша «{e}» снизили до {n2} секунд после жалоб на старые цены.",
                "TTL кеша «{e}»?",
                "{ea}: сколько живут ответы?",
            ),
            (
                "Сбросить руками: `redis-cli FLUSHDB` на {h}.",
                "как сбросить кеш «{e}»?",
                "{ea}: очистить память?",
            ),
        ],
    ),
    S(
        "feedback",
        "feedback_{e}_revyu",
        "Ревью «{E}»",
        ["Правило ревью для «{e}»"],
        [
            (
                "Мерж в «{e}» только после двух аппрувов, один из них — {p}.",
                "сколько аппрувов «{e}»?",
                "{ea}: число проверяющих?",
            ),
            (
                "Кнопкой администратора в обход ревью не мержить.",
                "мерж админом «{e}»?",
                "{ea}: можно в обход проверки?",
            ),
        ],
        why="непроверенная правка {d} потеряла неделю строк.",
    ),
    S(
        "project",
        "project_{e}_postgres",
        "Postgres «{E}»",
        ["На какой версии базы сидит «{e}»"],
        [
            (
                "«{E}» остаётся на Postgres 1{n1}, пока расширение не поддержит новую версию.",
                "версия Postgres «{e}»?",
                "{ea}: релиз СУБД?",
            ),
            (
                "Тикет на обновление DB-{n3}, ведёт {p2}.",
                "тикет обновления «{e}»?",
                "{ea}: кто двигает апгрейд?",
            ),
        ],
    ),
    S(
        "reference",
        "reference_{e}_demo",
        "Демо «{E}»",
        ["Демо-аккаунт для показа «{e}»"],
        [
            (
                "Демо-вход «{e}»: demo-{port}@example.test, пароль в сейфе Demos.",
                "демо логин «{e}»?",
                "{ea}: под кем показывать?",
            ),
            (
                "Демо-данные стираются каждое воскресенье ночью.",
                "сброс демо «{e}»?",
                "{ea}: когда чистится витрина?",
            ),
        ],
    ),
    S(
        "project",
        "project_{e}_limit",
        "Лимит запросов «{E}»",
        ["Квота запросов к API «{e}»"],
        [
            (
                "API «{e}» пускает {n3} запросов в минуту на ключ.",
                "лимит API «{e}»?",
                "{ea}: обращений в минуту?",
            ),
            (
                "Партнёрам золотого тарифа дают {n4}.",
                "квота золотого тарифа «{e}»?",
                "{ea}: больше вызовов крупным?",
            ),
        ],
    ),
]

RU_ENTITIES = [
    ("зарплата", "выплаты", "zarplata"),
    ("доставка", "курьеры", "dostavka"),
    ("чат", "переписка", "chat"),
    ("касса", "эквайринг", "kassa"),
    ("аналитика", "метрики", "analitika"),
]

RU_USER = [
    S(
        "user",
        "user_about",
        "О пользователе",
        ["Пользователь пишет и читает по-русски; аналитик данных"],
        [
            (
                "Пользователь говорит по-русски, отвечать ему по-русски; термины можно латиницей.",
                "язык ответов?",
                "как разговаривать с человеком?",
            ),
            (
                "Бывший аналитик данных, сейчас пишет сервисы на Python.",
                "чем занимается пользователь?",
                "опыт этого человека?",
            ),
        ],
        how="примеры кода давать с комментариями по-русски.",
    ),
]

RU_NOTES = [
    S(
        "project",
        "worklog_{e}",
        "Журнал {d}",
        ["Запись рабочего журнала"],
        [("Журнал {d}: смотрели медленный запрос на {h} с {p2}, отложили.", "", "")],
    ),
]

RU = {
    "code": "ru",
    "space": " ",
    "labels": {"why": "**Почему:**", "how": "**Как применять:**"},
    "people": ["Игорь", "Катя", "Лёша", "Маша", "Нина", "Олег"],
    "hosts": ["app-2", "queue-1", "db-spb", "runner-9"],
    "entities": RU_ENTITIES,
    "kits": RU_KITS,
    "user": RU_USER,
    "notes": RU_NOTES,
    "context": [
        "Записал {d} после звонка с {p}.",
        "Договорились на планировании {d}.",
        "Обсуждение в #eng от {d}.",
        "Задача ENG-{n3}.",
        "Прежняя версия заметки ошибалась в деталях, её переписали.",
        "{p2} просит сообщать до любых изменений, даже в отдельной ветке.",
        "Страница в вики старше и кое-где противоречит этому, верить этой заметке.",
        "Пересмотреть при следующем обновлении дорожной карты, видимо в следующем квартале.",
        "Если не уверен, пиши в инженерный канал, обычно отвечают в течение часа.",
        "Новичков отправляют сюда из чек-листа первой недели.",
        "В дизайн-доке сравнивали несколько вариантов, этот выиграл по цене.",
    ],
    "none": [
        "скидка на спортзал?",
        "меню столовой?",
        "где хранить велосипед?",
        "лимит командировочных?",
        "наставник для стажёра?",
        "бронь переговорки?",
        "тема новогодней вечеринки?",
        "шаблон письма для визы?",
    ],
    "joiners": ["{a} Плюс: {b}", "{a} И ещё {b}"],
}

SHORT = {"en": EN, "ru": RU}

# Supporting sentences of each kit (never asked about), as in bank_short_tune.py.
DETAILS = {
    "en": {
        "project_{e}_hosting_move": [
            "The rented machines were load-tested with a copy of last month's traffic.",
            "Certificates are issued by the new proxy, so nothing changes for browsers.",
        ],
        "reference_{e}_alert": [
            "The threshold was tuned after a week of false alarms during a marketing push.",
            "Silencing it needs a reason in the alert manager, not just a click.",
        ],
        "feedback_{e}_approvals": [
            "Documentation-only changes still count; the rule has no exceptions.",
            "Reviewers are picked by the code-owners file, so the bot asks the right people.",
        ],
        "project_{e}_cache_ttl": [
            "Hit rate dropped a little but the support tickets about old prices stopped.",
            "Warm-up after a deploy takes a couple of minutes and is expected.",
        ],
        "reference_{e}_vendor": [
            "The contract renews each spring; the account manager changes often.",
            "Escalations beyond support go through our procurement team.",
        ],
        "project_{e}_log_retention": [
            "Personal data is masked before logs leave the service.",
            "Restoring from the cold bucket takes a few hours, plan for it.",
        ],
        "reference_{e}_backups": [
            "Backups are encrypted with the team key held by two people.",
            "Snapshots older than thirty days are pruned automatically.",
        ],
        "feedback_{e}_batch_size": [
            "The job framework exposes the chunk size as a flag, no code change needed.",
            "Progress is logged per chunk so a restart can resume where it stopped.",
        ],
        "project_{e}_pg_version": [
            "The extension's maintainers promised support in their next release.",
            "Minor upgrades are applied monthly during the maintenance window.",
        ],
        "reference_{e}_demo_login": [
            "Sales uses the same account, so coordinate before big demos.",
            "The account cannot send real emails; outgoing mail is captured.",
        ],
        "project_{e}_rate_limit": [
            "Limits are enforced at the edge proxy, not in the application.",
            "Clients get a retry-after header when they hit the ceiling.",
        ],
        "feedback_{e}_branch_names": [
            "The CI pipeline reads the ticket number from the branch to link builds.",
            "Personal experiment branches go to a fork instead.",
        ],
        "project_{e}_review_meeting": [
            "Notes are posted in the channel the same day.",
            "Anyone can join; the meeting is recorded for other timezones.",
        ],
        "user_profile": [
            "Asks for trade-offs to be spelled out before a recommendation.",
            "Prefers diagrams in text form over long prose.",
        ],
        "worklog_{e}": ["Short day; most time went into reviews."],
        "sync_{e}": ["No decisions needed; next sync in two weeks."],
    },
    "ru": {
        "reference_{e}_alert": [
            "Порог подбирали после недели ложных тревог во время рекламной кампании.",
            "Заглушить можно только с причиной в алертменеджере.",
        ],
        "project_{e}_logi": [
            "Персональные данные маскируются до того, как логи покидают сервис.",
            "Поднять данные из архива — несколько часов, закладывайте время.",
        ],
        "reference_{e}_bekapy": [
            "Копии шифруются командным ключом, он есть у двух человек.",
            "Снимки старше тридцати дней удаляются сами.",
        ],
        "project_{e}_kesh": [
            "Доля попаданий немного упала, зато жалобы на старые цены прекратились.",
            "Прогрев после деплоя занимает пару минут, это нормально.",
        ],
        "feedback_{e}_revyu": [
            "Правки только в документации тоже считаются, исключений нет.",
            "Ревьюеров назначает файл владельцев кода, бот зовёт нужных людей.",
        ],
        "project_{e}_postgres": [
            "Авторы расширения обещали поддержку в следующем релизе.",
            "Минорные обновления ставятся раз в месяц в окно обслуживания.",
        ],
        "reference_{e}_demo": [
            "Тем же аккаунтом пользуются продажи, перед большими показами договаривайтесь.",
            "Настоящие письма с него не уходят, почта перехватывается.",
        ],
        "project_{e}_limit": [
            "Лимиты режет прокси на входе, а не само приложение.",
            "При превышении клиент получает заголовок retry-after.",
        ],
        "user_about": [
            "Просит сначала расписать компромиссы, потом давать рекомендацию.",
            "Предпочитает схемы текстом, а не длинные абзацы.",
        ],
        "worklog_{e}": ["Короткий день, почти всё время ушло на ревью."],
    },
}
for _code, _lang in SHORT.items():
    for _kit in _lang["kits"] + _lang["user"] + _lang["notes"]:
        _kit["details"] = DETAILS[_code].get(_kit["file"], [])
