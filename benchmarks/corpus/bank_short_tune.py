"""Short-memory bank of the TUNE corpus (twentieth session). Every sentence written for memdir_nb.

Short memories (a few hundred characters) and two-to-five-word questions, in English and
Russian; the shapes follow real short memories (a rule or a fact, a Why line, a How-to-apply
line, code names in Latin script inside Russian sentences). Slots as in bank_tune.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from short_dirs import S

EN_KITS = [
    S(
        "project",
        "project_{e}_cutover",
        "{E} cutover",
        ["Moving {e} off the old cluster", "{E} cluster move plan"],
        [
            (
                "The {e} cutover is booked for {d}, a Sunday morning, with {p} watching the dashboards.",
                "when is the {e} cutover?",
                "{ea} switch-over day?",
            ),
            (
                "Rolling back means flipping `{e}_primary` to the old side; last rehearsal took {n2} minutes.",
                "{e} rollback duration?",
                "undo time for {ea}?",
            ),
            (
                "Reads stay on the legacy replicas until {d2}, writes move on day one.",
                "{e} reads legacy until?",
                "{ea} off replicas when?",
            ),
        ],
        why="the old cluster's support contract ends this year.",
        how="freeze schema changes for {e} in the week before.",
    ),
    S(
        "reference",
        "reference_{e}_kill_switch",
        "{E} kill switch",
        ["Emergency off switch for {e}"],
        [
            (
                "The {e} kill switch is the `{e}_enabled` flag in the flags console; {p} owns it.",
                "{e} kill switch flag?",
                "turn off {ea} fast?",
            ),
            (
                "Flipping it serves a static maintenance page within {n1} seconds.",
                "{e} switched off shows?",
                "visitors see what, {ea} down?",
            ),
        ],
        how="say in #incidents before flipping it.",
    ),
    S(
        "reference",
        "reference_{e}_oncall",
        "{E} on-call",
        ["Who answers the {e} pager and when it changes hands"],
        [
            (
                "{p} carries the {e} pager this week; the hand-off is Monday at 10:00.",
                "who's on call for {e}?",
                "{ea} duty person this week?",
            ),
            (
                "Escalate to {p2} if nobody acks within {n2} minutes.",
                "{e} escalation after no ack?",
                "{ea} unanswered alerts, then who?",
            ),
        ],
    ),
    S(
        "feedback",
        "feedback_{e}_retries",
        "{E} retry cap",
        ["Keep retries for {e} calls low"],
        [
            (
                "Cap retries on {e} calls at {n1}; more of them only hides a real outage.",
                "{e} retry limit?",
                "{ea} attempts max?",
            ),
            (
                "Use jittered backoff starting at {n3} ms, never a fixed sleep.",
                "{e} backoff start?",
                "first {ea} wait?",
            ),
        ],
        why="a retry storm in {d} doubled the load during an incident.",
        how="reject reviews that raise the cap without a linked incident.",
    ),
    S(
        "reference",
        "reference_{e}_dashboard",
        "{E} dashboards",
        ["Where the {e} graphs live"],
        [
            (
                "The {e} latency board is grafana/d/{sha}; the error board sits next to it.",
                "{e} latency dashboard?",
                "{ea} charts where?",
            ),
            (
                "Its p99 panel reads from the `{e}_http` recording rule, refreshed every {n2} s.",
                "{e} p99 panel source?",
                "{ea} slow-request numbers from?",
            ),
        ],
    ),
    S(
        "project",
        "project_{e}_timeout",
        "{E} request timeout",
        ["Current timeout for calls into {e}"],
        [
            (
                "Requests into {e} now give up after {n2} seconds (PR #{pr}).",
                "{e} timeout value?",
                "how long before {ea} calls give up?",
            ),
            (
                "The old value was {n3} ms and caused spurious failures at month end.",
                "previous {e} timeout?",
                "{ea} wait before?",
            ),
        ],
        why="month-end batches were being cut off half way.",
    ),
    S(
        "reference",
        "reference_{e}_staging",
        "{E} staging",
        ["Where the {e} test environment runs"],
        [
            (
                "{E} staging runs on {h}, port {port}, reset every night at 03:00.",
                "{e} staging host?",
                "where does test {ea} live?",
            ),
            (
                "Seed data comes from `fixtures/{e}_seed.sql`; ask {p} before changing it.",
                "{e} seed data file?",
                "{ea} sample rows owner?",
            ),
        ],
    ),
    S(
        "project",
        "project_{e}_v1_sunset",
        "{E} v1 sunset",
        ["Retiring the first version of the {e} endpoint"],
        [
            (
                "The v1 {e} endpoint is switched off on {d}; clients got two reminder mails.",
                "{e} v1 shutdown date?",
                "old {ea} API death?",
            ),
            (
                "{n1} partners still call v1; {p2} is chasing them one by one.",
                "who still calls {e} v1?",
                "{ea} laggard partners?",
            ),
        ],
        how="answer v1 questions with the migration guide link.",
    ),
    S(
        "feedback",
        "feedback_{e}_test_db",
        "{E} test database",
        ["Test rules for {e}: real database, no mocks"],
        [
            (
                "Never mock the {e} database in tests; start the docker fixture instead.",
                "mock {e} db?",
                "fake storage in {ea} tests?",
            ),
            (
                "The fixture needs `make {e}-db` once, then stays up between runs.",
                "{e} fixture command?",
                "start {ea} container?",
            ),
        ],
        why="a mocked suite passed while a broken migration shipped in {d}.",
    ),
    S(
        "project",
        "project_{e}_budget",
        "{E} cloud budget",
        ["Monthly spending cap for {e}"],
        [
            (
                "The {e} cloud bill is capped at ${n4} a month; the alert fires at 80%.",
                "{e} monthly budget?",
                "spend ceiling for {ea}?",
            ),
            (
                "Most of it goes to the GPU nodes; {p} reviews the bill on the 5th.",
                "who reviews the {e} bill?",
                "{ea} costs checked by?",
            ),
        ],
    ),
    S(
        "reference",
        "reference_{e}_secrets",
        "{E} secrets",
        ["Where credentials for {e} are kept"],
        [
            (
                "{E} API keys live in vault under `secret/{e}/prod`; staging keys under `secret/{e}/stg`.",
                "{e} vault path?",
                "where are {ea} credentials?",
            ),
            (
                "Keys rotate every {n2} days; the rotation job runs on {h}.",
                "{e} key rotation interval?",
                "{ea} tokens change how often?",
            ),
        ],
        how="never paste a key into a ticket; link the vault path.",
    ),
    S(
        "project",
        "project_{e}_freeze",
        "{E} deploy freeze",
        ["Period when {e} may not be deployed"],
        [
            (
                "No {e} deploys from {d} to {d2}: the auditors are reading the logs.",
                "{e} freeze dates?",
                "no {ea} shipping when?",
            ),
            (
                "Hotfixes still go out with {p2}'s written OK.",
                "{e} hotfix during freeze?",
                "urgent {ea} fix allowed?",
            ),
        ],
    ),
    S(
        "reference",
        "reference_{e}_pricing_owner",
        "{E} pricing sign-off",
        ["Who approves price changes in {e}"],
        [
            (
                "{p2} in finance signs off every {e} pricing change; send the diff, not a screenshot.",
                "who approves {e} pricing?",
                "{ea} price change OK from?",
            ),
            (
                "Price changes go live only on the 1st of a month.",
                "{e} price change day?",
                "{ea} prices move which day?",
            ),
        ],
    ),
]

EN_ENTITIES = [
    ("billing", "invoicing"),
    ("search", "finder"),
    ("checkout", "basket"),
    ("mailer", "mailouts"),
    ("ledger", "bookkeeping"),
    ("uploads", "intake"),
    ("reports", "exports"),
    ("auth", "sign-in"),
    ("catalog", "listings"),
    ("scheduler", "cron"),
    ("geo", "geolocation"),
]

EN_NOTES = [
    S(
        "project",
        "session_{e}",
        "Session notes {d}",
        ["Loose notes from a working session"],
        [("Session of {d}: paired with {p} on a flaky test on {h}; nothing decided.", "", "")],
    ),
    S(
        "project",
        "standup_{e}",
        "Standup {d}",
        ["Standup notes"],
        [("Standup {d}: {n1} PRs merged, {p2} out sick, demo moved to Friday.", "", "")],
    ),
]

EN_USER = [
    S(
        "user",
        "user_role",
        "User role",
        ["The user: backend developer, wants terse answers"],
        [
            (
                "Backend developer on the payments team; prefers terse answers, code first.",
                "answer style preference?",
                "how verbose should replies be?",
            ),
            (
                "Works from Warsaw, UTC+1, usually 9 to 17.",
                "user's timezone?",
                "person's working hours?",
            ),
        ],
    ),
]

EN = {
    "code": "en",
    "space": " ",
    "labels": {"why": "**Why:**", "how": "**How to apply:**"},
    "people": ["Ana", "Bilal", "Chen", "Dora", "Emeka", "Greta", "Hiro"],
    "hosts": ["stg-01", "box-7", "eu-west-db", "ci-4"],
    "entities": EN_ENTITIES,
    "kits": EN_KITS,
    "user": EN_USER,
    "notes": EN_NOTES,
    "context": [
        "Noted on {d} after a chat with {p}.",
        "Came up in the {d} review.",
        "See the thread in #platform from {d}.",
        "Confirmed again by {p2} last week.",
        "Ticket: OPS-{n3}.",
        "This replaced an older note that had gone stale after the spring reorganisation.",
        "{p} wants to hear about it before anyone changes it, even for a quick experiment.",
        "The runbook page says the same thing but is out of date on the details.",
        "Worth re-checking after the next quarterly planning, things move fast here.",
        "If in doubt, ask in the team channel rather than guessing; people answer quickly.",
        "Linked from the onboarding checklist so new joiners see it in their first week.",
        "There was a long discussion about alternatives; this is what we settled on for now.",
    ],
    "none": [
        "parking pass renewal?",
        "office wifi password?",
        "team offsite venue?",
        "holiday calendar 2027?",
        "logo colour palette?",
        "printer toner order?",
        "quarterly goals owner?",
        "new laptop request form?",
        "lunch order Friday?",
        "conference talk deadline?",
        "Kubernetes upgrade plan?",
    ],
    "joiners": ["{a} And {b}", "{a} Also: {b}"],
}

RU_KITS = [
    S(
        "project",
        "project_{e}_pereezd",
        "Переезд «{E}»",
        ["План переезда сервиса «{e}» на новый кластер"],
        [
            (
                "Переезд сервиса «{e}» назначен на {d}, утро воскресенья, дежурит {p}.",
                "когда переезд «{e}»?",
                "{ea}: дата миграции?",
            ),
            (
                "Откат — переключить флаг `primary` обратно, на репетиции ушло {n2} минут.",
                "сколько длится откат «{e}»?",
                "{ea}: время возврата?",
            ),
        ],
        why="контракт на старые серверы заканчивается в этом году.",
        how="за неделю до даты не менять схему базы.",
    ),
    S(
        "project",
        "project_{e}_taimaut",
        "Таймаут «{E}»",
        ["Текущий таймаут запросов к «{e}»"],
        [
            (
                "Запросы к «{e}» обрываются через {n2} секунд, поменяли в PR #{pr}.",
                "таймаут «{e}»?",
                "{ea}: сколько ждём ответа?",
            ),
            (
                "Раньше было {n3} мс, и в конце месяца сыпались ложные ошибки.",
                "старый таймаут «{e}»?",
                "{ea}: что было раньше?",
            ),
        ],
    ),
    S(
        "reference",
        "reference_{e}_dezhurny",
        "Дежурство «{E}»",
        ["Кто дежурит по «{e}» и когда смена"],
        [
            (
                "На этой неделе пейджер «{e}» у {p}, смена в понедельник в 10:00.",
                "кто дежурит по «{e}»?",
                "{ea}: ответственный на неделе?",
            ),
            (
                "Если никто не ответил за {n2} минут, звонить {p2}.",
                "эскалация «{e}»?",
                "{ea}: запасной контакт?",
            ),
        ],
    ),
    S(
        "reference",
        "reference_{e}_klyuchi",
        "Ключи «{E}»",
        ["Где лежат секреты сервиса «{e}»"],
        [
            (
                "Ключи API для «{e}» лежат в Vault по пути `secret/shop/{n3}/prod`.",
                "где ключи «{e}»?",
                "{ea}: путь к токенам?",
            ),
            (
                "Ротация раз в {n2} дней, задача крутится на {h}.",
                "ротация ключей «{e}»?",
                "{ea}: как часто менять пароли?",
            ),
        ],
        how="ключ в тикет не вставлять, только ссылку на путь.",
    ),
    S(
        "feedback",
        "feedback_{e}_testy",
        "Тесты «{E}»",
        ["Правило для тестов «{e}»: настоящая база"],
        [
            (
                "В тестах «{e}» базу не мокать, поднимать docker-фикстуру.",
                "мокать базу «{e}»?",
                "{ea}: подделка хранилища?",
            ),
            (
                "Фикстура запускается командой `make db-up` один раз.",
                "команда фикстуры «{e}»?",
                "{ea}: поднять контейнер?",
            ),
        ],
        why="с моком тесты прошли, а сломанная миграция уехала в прод {d}.",
    ),
    S(
        "feedback",
        "feedback_{e}_povtory",
        "Повторы «{E}»",
        ["Сколько повторов допустимо для «{e}»"],
        [
            (
                "Повторных попыток для «{e}» не больше {n1}, иначе прячем настоящую аварию.",
                "лимит повторов «{e}»?",
                "{ea}: сколько раз дёргать?",
            ),
            (
                "Пауза перед первой попыткой — {n3} мс со случайным разбросом.",
                "первая пауза «{e}»?",
                "{ea}: задержка перед заходом?",
            ),
        ],
        why="шторм ретраев удвоил нагрузку во время аварии.",
    ),
    S(
        "project",
        "project_{e}_byudzhet",
        "Бюджет «{E}»",
        ["Месячный лимит расходов на «{e}»"],
        [
            (
                "Облако для «{e}» ограничено {n4} $ в месяц, алерт на 80%.",
                "бюджет «{e}»?",
                "{ea}: потолок трат?",
            ),
            (
                "Счёт проверяет {p} пятого числа.",
                "кто проверяет счёт «{e}»?",
                "{ea}: кто смотрит расходы?",
            ),
        ],
    ),
    S(
        "project",
        "project_{e}_zamorozka",
        "Заморозка «{E}»",
        ["Период, когда «{e}» нельзя выкатывать"],
        [
            (
                "Релизы «{e}» заморожены с {d} по {d2}: идёт аудит.",
                "даты заморозки «{e}»?",
                "{ea}: когда нельзя деплоить?",
            ),
            (
                "Срочные исправления — только с письменного согласия {p2}.",
                "хотфикс «{e}» в заморозку?",
                "{ea}: можно срочно чинить?",
            ),
        ],
    ),
]

RU_ENTITIES = [
    ("оплата", "платежи", "oplata"),
    ("склад", "остатки", "sklad"),
    ("бот", "помощник", "bot"),
    ("отчёты", "выгрузки", "otchety"),
    ("поиск", "подбор", "poisk"),
]

RU_USER = [
    S(
        "user",
        "user_profile",
        "Профиль пользователя",
        ["Пользователь говорит по-русски; бэкенд-разработчик"],
        [
            (
                "Пользователь говорит по-русски: отвечать по-русски, команды и имена в коде оставлять как есть.",
                "на каком языке отвечать?",
                "язык общения в чате?",
            ),
            (
                "Пишет бэкенд на Go, фронтенд не трогает.",
                "на чём пишет пользователь?",
                "стек этого человека?",
            ),
        ],
        how="англицизмы без нужды не использовать.",
    ),
]

RU_NOTES = [
    S(
        "project",
        "session_{e}",
        "Заметки сессии {d}",
        ["Черновые заметки рабочей сессии"],
        [("Сессия {d}: с {p} разбирали нестабильный тест на {h}, ничего не решили.", "", "")],
    ),
]

RU = {
    "code": "ru",
    "space": " ",
    "labels": {"why": "**Почему:**", "how": "**Как применять:**"},
    "people": ["Аня", "Борис", "Вика", "Глеб", "Дима", "Женя"],
    "hosts": ["stg-01", "box-7", "db-msk", "ci-4"],
    "entities": RU_ENTITIES,
    "kits": RU_KITS,
    "user": RU_USER,
    "notes": RU_NOTES,
    "context": [
        "Записано {d} после разговора с {p}.",
        "Обсуждали на ревью {d}.",
        "Тред в #platform от {d}.",
        "Тикет OPS-{n3}.",
        "Это заменило старую заметку, которая устарела после весенней реорганизации.",
        "{p} просит предупреждать заранее, даже если это быстрый эксперимент.",
        "В ранбуке написано то же самое, но детали там устарели.",
        "Стоит перепроверить после следующего квартального планирования.",
        "Если сомневаешься, спроси в канале команды, там быстро отвечают.",
        "Ссылка есть в чек-листе онбординга, новички видят это в первую неделю.",
        "Долго обсуждали альтернативы, пока остановились на этом.",
    ],
    "none": [
        "пароль от вайфая?",
        "когда корпоратив?",
        "график отпусков?",
        "цвет логотипа?",
        "где парковка?",
        "заказ воды в офис?",
        "дедлайн доклада?",
        "форма заявки на ноутбук?",
    ],
    "joiners": ["{a} И ещё: {b}", "{a} А {b}"],
}

SHORT = {"en": EN, "ru": RU}

# Supporting sentences of each kit (never asked about): what a real short memory says around its
# fact. A memory draws all of them, in a drawn order among its facts.
DETAILS = {
    "en": {
        "project_{e}_cutover": [
            "The new cluster has been taking shadow traffic since {d2} without surprises.",
            "Customers were told in the last newsletter; support has a canned answer ready.",
        ],
        "reference_{e}_kill_switch": [
            "It exists since the outage where we could not stop {e} without a full deploy.",
            "The flag is read on every request, so there is no cache to wait for.",
        ],
        "reference_{e}_oncall": [
            "The rota is generated from the team calendar every Friday afternoon.",
            "Swaps are fine as long as both people update the calendar themselves.",
        ],
        "feedback_{e}_retries": [
            "The shared HTTP client already does the right thing if you pass the policy object.",
            "Idempotency keys make the retries safe; calls without one must not be retried at all.",
        ],
        "reference_{e}_dashboard": [
            "Panels are provisioned from the `dashboards/` folder, so edits in the UI get lost.",
            "The on-call checklist links here as its first step.",
        ],
        "project_{e}_timeout": [
            "Slow callers were mostly the nightly exports, which now page through results.",
            "The client libraries read the value from config, so nobody needs to redeploy them.",
        ],
        "reference_{e}_staging": [
            "Staging shares the message broker with two other teams; keep test topics prefixed.",
            "Logins there use the fake identity provider, any password works.",
        ],
        "project_{e}_v1_sunset": [
            "Traffic on v1 has fallen by about nine tenths since the announcement.",
            "The v2 guide covers every endpoint except bulk uploads, which are still being written.",
        ],
        "feedback_{e}_test_db": [
            "The container starts with an empty schema and runs all migrations on boot.",
            "Tests that need data create it themselves and clean up afterwards.",
        ],
        "project_{e}_budget": [
            "The alert goes to the team channel and to the finance mailbox.",
            "Spot instances were tried and dropped because the jobs could not resume cleanly.",
        ],
        "reference_{e}_secrets": [
            "Service accounts read their keys at start-up through the sidecar, never from env files.",
            "Access requests go through the usual form and take a day or two.",
        ],
        "project_{e}_freeze": [
            "The auditors asked for a stable system while they sample the access logs.",
            "Feature branches can keep moving; only production deploys stop.",
        ],
        "reference_{e}_pricing_owner": [
            "Finance keeps the master price list in a spreadsheet; the database copies it.",
            "A change without sign-off was reverted last year and nobody wants a repeat.",
        ],
        "user_role": [
            "Reviews every diff in the terminal before accepting it.",
            "Dislikes long preambles and summaries at the end of answers.",
        ],
        "session_{e}": ["Mostly housekeeping; the real work moved to the next day."],
        "standup_{e}": ["Nothing blocking; the release train left on time."],
    },
    "ru": {
        "project_{e}_pereezd": [
            "Новый кластер уже неделю принимает зеркальный трафик без сюрпризов.",
            "Клиентов предупредили в рассылке, у поддержки есть готовый ответ.",
        ],
        "project_{e}_taimaut": [
            "Медленными были в основном ночные выгрузки, теперь они идут постранично.",
            "Клиентские библиотеки берут значение из конфига, передеплой не нужен.",
        ],
        "reference_{e}_dezhurny": [
            "Расписание собирается из календаря команды каждую пятницу.",
            "Меняться можно, если оба сами поправят календарь.",
        ],
        "reference_{e}_klyuchi": [
            "Сервисы читают ключи при старте через сайдкар, не из env-файлов.",
            "Доступ запрашивается через обычную форму, занимает день-два.",
        ],
        "feedback_{e}_testy": [
            "Контейнер стартует с пустой схемой и прогоняет все миграции.",
            "Тесты сами создают нужные данные и убирают за собой.",
        ],
        "feedback_{e}_povtory": [
            "Общий HTTP-клиент уже умеет это, если передать объект политики.",
            "Без ключа идемпотентности запрос повторять нельзя вообще.",
        ],
        "project_{e}_byudzhet": [
            "Алерт приходит в канал команды и на почту финансов.",
            "Спотовые инстансы пробовали и отказались: задачи не умели продолжаться.",
        ],
        "project_{e}_zamorozka": [
            "Аудиторам нужна стабильная система, пока они смотрят журналы доступа.",
            "Ветки с фичами можно двигать, останавливается только выкладка в прод.",
        ],
        "user_profile": [
            "Каждый дифф смотрит в терминале, прежде чем принять.",
            "Не любит длинные вступления и итоги в конце ответа.",
        ],
        "session_{e}": ["В основном уборка, настоящая работа переехала на следующий день."],
    },
}
for _code, _lang in SHORT.items():
    for _kit in _lang["kits"] + _lang["user"] + _lang["notes"]:
        _kit["details"] = DETAILS[_code].get(_kit["file"], [])
