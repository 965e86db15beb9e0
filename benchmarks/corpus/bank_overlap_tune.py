"""Partial-overlap questions of the TUNE corpus's log-shaped dirs (twenty-first session).

Every sentence written for memdir_nb. One question per fact of bank_log_tune_{en,ru}.py, keyed by
the kit's file template (the series by its own), in the facts' order. Each shares one or two
content words with the entry that answers it (a rare noun, a tool, a place, the entity) and
words the rest differently, as LoCoMo's questions do; slots as in the log banks.
"""

from __future__ import annotations

OVERLAP = {
    "en": {
        "project_{e}_deploy_log": [
            "Which {ea} release did we retreat to when p99 spiked?",
            "Which day of the week can {e} go out, now that the end of the week is off limits?",
            "How many connections should the {ea} open so it survives the lunch rush?",
            "Who approves {e} builds since a colleague's leave began?",
        ],
        "project_{e}_oncall_notes": [
            "How much disk may the {ea} keep for retries?",
            "After the false alarms, what failure percentage pages us for the {ea}?",
            "Which port do probes against the {ea} really use, the dashboard notwithstanding?",
            "How do we get the {e} supplier to reply within the hour?",
        ],
        "project_{e}_weekly_sync": [
            "When is the old XML file of the {ea} retired?",
            "How many euros can we spend stress-testing {e}?",
            "Which client gets the {ea} beta first?",
            "Why did the vote go against running our own broker for {e}?",
        ],
        "project_{e}_migration_status": [
            "How many hours did moving the {ea} bytes take, and did the checksums agree?",
            "What time did the {ea} switch its DNS records?",
            "When will the {e} machines that are read-only be removed?",
            "What is the {ea} cluster move waiting on from the network people?",
        ],
        "project_{e}_incident_followups": [
            "Why did the {ea} go down, and what happened to its signing key?",
            "How long is the {ea} audit trail kept?",
            "How frequently will a robot sign in to {e}?",
            "Which team writes the public status page of the {ea}?",
        ],
        "project_platform_sync_{e}": [
            "How long will each on-call turn last once the rota changes?",
            "What will renewing the observability contract cost?",
            "At what hour does staging go dark?",
            "Who maintains our Terraform code going forward?",
            "What new box must a postmortem fill in?",
            "Did Datadog win the dashboard choice?",
            "When is the hackathon, and what rule do projects follow?",
            "What fraction of alerts is pure noise?",
            "Which city hosts the team offsite?",
            "How many working days may a review wait?",
            "When do we move to Postgres 16?",
            "How often do the deploy credentials have to change?",
            "Who talks about savings at the company meeting?",
            "What made the build-server bill climb?",
            "When does Jenkins go away for good?",
            "What is the retention for application logs?",
            "Who reports to leadership and how often?",
            "Do the balancer certificates still need manual renewal?",
            "When can I run Linux on my work machine?",
            "After how many pages does the backup on-call step in?",
        ],
    },
    "ru": {
        "project_{e}_shift_log": [
            "Когда вернут в строй погрузчик на «{e}»?",
            "На какое время поставщик перенёс утренний приезд на «{e}»?",
            "Какая недостача нашлась в зоне C на «{e}»?",
            "Кому отдали ключи на «{e}»?",
        ],
        "project_{e}_carrier_calls": [
            "Насколько подорожает тариф перевозки для «{e}»?",
            "По каким дням увозят возвраты со склада «{e}»?",
            "Кому звонить по «{e}», если старый номер транспортной компании молчит?",
            "Сколько рублей платит перевозчик за машину на «{e}», если она стоит дольше двух часов?",
        ],
        "project_{e}_wms_move": [
            "Сколько ячеек получилось при адресном учёте на «{e}»?",
            "Какая версия прошивки у сканеров на «{e}»?",
            "Сколько человек на «{e}» пока не допущены к новой системе?",
            "Когда на «{e}» перестанут вести две базы?",
        ],
        "project_{e}_complaints": [
            "Из-за чего на «{e}» перепутали товар, при чём тут этикетки?",
            "Сколько слоёв плёнки и какой короб для хрупкого на «{e}»?",
            "Сколько рабочих дней у «{e}» на ответ клиенту?",
            "Какую сумму возврата клиенту старший смены на «{e}» одобряет без начальства?",
        ],
        "project_planerka_sever_{e}": [
            "Сколько часов длится смена с понедельника?",
            "Какой процент оклада дадут в конце квартала?",
            "Кто теперь командует службой охраны?",
            "Когда теперь уборка полов?",
            "Во что обойдётся комплексный обед?",
            "Как пройти вечером, когда ворота уже закрыты?",
            "Какого числа медосмотр и где?",
            "Какой штраф за курение не там?",
            "Сколько машин сотрудников теперь поместится на стоянке?",
            "Можно ли взять летом отпуск на месяц?",
            "Кто опекает новичков и получает за это доплату?",
            "Где теперь стоит зарядка для раций?",
            "Когда вернуть пропуска старого образца?",
            "В каком кафе празднуем в конце года?",
        ],
    },
}
