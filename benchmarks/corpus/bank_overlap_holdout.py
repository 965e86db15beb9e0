"""Partial-overlap questions of the HOLDOUT corpus's log-shaped dirs (twenty-first session).

Every sentence written for memdir_nb. One question per fact of bank_log_holdout_{en,ru}.py, keyed
by the kit's file template (the series by its own), in the facts' order. Each shares one or two
content words with the entry that answers it (a rare noun, a tool, a place, the entity) and
words the rest differently, as LoCoMo's questions do; slots as in the log banks.
"""

from __future__ import annotations

OVERLAP = {
    "en": {
        "project_{e}_run_log": [
            "Which step size scored the top AUC on the {ea}?",
            "Which snapshot replaced the one with the March duplicates for the {ea}?",
            "How much hardware can the {e} claim, and who approves more?",
            "Why did the {e} lose one of its inputs?",
        ],
        "project_{e}_notebook": [
            "Over what period does the {e} repeat itself?",
            "At what percentile do we cap extreme values in the {ea}?",
            "Why can't we compare the {ea} to the published baseline?",
            "Which dataframe library release must the {e} stay on?",
        ],
        "project_{e}_client_calls": [
            "By what date does the client expect the {e} slides?",
            "Who on the warehouse side grants the {ea} extracts?",
            "What precision is good enough for the customer on the {ea}?",
            "Where is the {ea} invoice sent?",
        ],
        "project_{e}_pipeline_status": [
            "What time does the {ea} reload run to dodge the backup?",
            "What's the new name of the {ea} features table?",
            "What share of null rows stops the {ea} job?",
            "Who gets the {e} alerts now, and where do messages go?",
        ],
        "project_{e}_review_notes": [
            "Why can't the {ea} ship to American customers without an audit?",
            "What p95 must the {ea} meet when live?",
            "How long can the {ea} go stale before drift alarms?",
            "How large a subset do we explain the {e} on?",
        ],
        "project_analytics_weekly_{e}": [
            "Who chooses the papers we read, and when do we meet?",
            "Should a fresh project start with pandas?",
            "How many days can I hold the GPU machine?",
            "Who looks after forecasting while a colleague is on sabbatical?",
            "What is the yearly price of the catalogue?",
            "What paperwork must a model have before it ships?",
            "Can interns change data in prod?",
            "Who should I ask about privacy?",
            "What is this quarter's hackday about?",
            "How old can a notebook on the shared drive get before it's moved away?",
            "What did the AutoML trial conclude?",
            "What's my yearly allowance for conference trips?",
            "Who must approve an experiment's results before they are announced?",
            "When are we done migrating to the warehouse?",
            "When can stakeholders drop in with questions?",
            "Do notebooks get reviewed like packages?",
            "Who fixes broken pipelines, and from when?",
            "When does the R server go away?",
            "How long does a newcomer's buddy stay with them?",
            "How much do the recommender's idle GPUs cost us a month?",
        ],
    },
    "ru": {
        "project_{e}_releases": [
            "Почему «{e}» убрали из магазина?",
            "Какой процент пользователей получает новую версию «{e}» первым?",
            "У кого аккаунт разработчика для публикации «{e}»?",
            "Что увидят старые устройства при запуске «{e}»?",
        ],
        "project_{e}_qa_notes": [
            "Сколько времени занимает регресс «{e}»?",
            "При какой сети у «{e}» деньги списываются дважды?",
            "Какой адрес у стенда для проверки «{e}»?",
            "Какая часть экранов «{e}» проверяется автоматически?",
        ],
        "project_{e}_client_calls": [
            "На когда отложили тёмную тему «{e}»?",
            "Как выставляется счёт за поддержку «{e}» сверх лимита?",
            "Кто вместо отдела маркетинга принимает работу по «{e}»?",
            "Что юрист разрешил по уведомлениям «{e}»?",
        ],
        "project_{e}_api_move": [
            "Когда перестанут работать старые сессии «{e}»?",
            "Сколько запросов в минуту можно слать к «{e}», прежде чем получишь ошибку?",
            "Как долго CDN держит изображения «{e}»?",
            "Что мешает «{e}» закончить переезд, какой эндпоинт?",
        ],
        "project_studio_weekly_{e}": [
            "Нужно ли код-ревью для любой ветки?",
            "Куда девать старые макеты?",
            "Сколько денег на квартал выделено на телефоны для тестов?",
            "Кто подхватывает проекты на время декрета?",
            "Где график дежурств по релизам?",
            "С какой версии Android работает приложение?",
            "Компенсируют ли курсы языка?",
            "До которого часа в пятницу можно выкатывать?",
            "Где будет новый офис?",
            "Остаёмся ли мы на Firebase?",
            "Какая тема у ближайшего хакатона?",
            "Как долго лежат ночные сборки?",
            "Сколько часов может занимать тестовое для кандидата?",
            "Кто подписывает отпуска?",
        ],
    },
}
