"""Dialogue dirs of the holdout corpus (twenty-second session): two friends' chat sessions.

Written for this project in LoCoMo's shape (see dialogue_dirs.py), independently of the tune
bank: other people, places and events, and no sentence in common with it.
"""

from __future__ import annotations

from typing import Any

from dialogue_dirs import S

PRIYA_MARCUS: dict[str, Any] = {
    "people": ("Priya", "Marcus"),
    "greetings": [
        [
            "B: Priya! You survived another week of vet school?",
            "A: Barely. Hi Marcus! How were the buses?",
        ],
        [
            "A: Hi Marcus, is this a good time?",
            "B: Perfect time. Tess is in bed and I'm pretending to write.",
        ],
        ["B: Evening! Is Juniper behaving?", "A: Define behaving. Hi! How's everyone at your end?"],
        [
            "A: Marcus, hey, I have about half an hour before I need to study. Catch up?",
            "B: Go on then, I'll make it worth your while.",
        ],
        [
            "B: Hey you. Long time no chat.",
            "A: I know, I'm sorry, it's been placement after placement. How are you?",
        ],
    ],
    "goodbyes": [
        [
            "A: Right, the textbook is glaring at me. Bye Marcus!",
            "B: Good luck with it. Say hello to Juniper.",
        ],
        [
            "B: Early shift tomorrow, first bus leaves at half five. Night, Priya.",
            "A: Night! Drive safe.",
        ],
        ["A: Juniper is thumping at me, that means dinner. Talk soon!", "B: Go, go. Talk soon."],
        [
            "B: I'd better go and check Tess's kit bag is packed. Chat next week?",
            "A: Definitely. Bye!",
        ],
    ],
    "plain": [
        "{A} and {B} talked at {when}.",
        "At {when}, {B} and {A} had a catch-up.",
        "{A} and {B} spoke at {when}.",
    ],
    "chat": [
        [
            "B: How's Juniper doing?",
            "A: Fat and happy. She runs laps of the living room every evening at nine like clockwork.",
            "B: Sounds like my daughter.",
        ],
        [
            "A: How's the writing going?",
            "B: Some days two thousand words, some days I stare at one sentence about a boat for an hour.",
        ],
        [
            "B: Are you still at the shelter on Sundays?",
            "A: Every Sunday. Mostly cleaning and cuddling, which is the best mix of jobs.",
        ],
        ["A: How's Tess?", "B: Obsessed with football, dinosaurs and being right. In that order."],
        [
            "B: Did you climb this week?",
            "A: Twice at the Crag. My forearms still feel like they belong to someone else.",
        ],
        [
            "A: Are the passengers treating you well?",
            "B: Mostly. One man tried to pay with a voucher for a carpet shop this morning.",
        ],
        [
            "B: Is Dunmore still flooded by the river?",
            "A: It went down at last. The path by the bridge is still all mud, though.",
        ],
        [
            "A: Are the Otters training in this weather?",
            "B: In the rain, yes. Under-tens don't care about rain. It's the parents who complain.",
        ],
        [
            "B: How's the studying?",
            "A: There's so much of it. I dream about bones now. Actual bones, with labels.",
        ],
        [
            "A: Have you been reading anything good?",
            "B: Mostly other people's fantasy novels, to see how they do maps and kings and so on.",
        ],
        [
            "B: Does Juniper get on with your flatmate?",
            "A: She loves him, because he drops lettuce on the floor. I'm the strict parent.",
        ],
        [
            "A: Is your back still bad from the driving?",
            "B: Better since I got the cushion. Eight hours on a bus seat is no joke.",
        ],
        ["B: Are you eating properly, student?", "A: Toast is a food group, Marcus."],
        [
            "A: Does Tess still want to be a goalkeeper?",
            "B: Goalkeeper on Mondays, striker on Tuesdays. It depends who she's watched on telly.",
        ],
        [
            "B: What's the shelter like at the moment?",
            "A: Full of kittens. It's always full of kittens in spring. We need more foster homes.",
        ],
        [
            "A: Do you ever get to write on your breaks?",
            "B: In the canteen at the depot. The other drivers think I'm doing crosswords.",
        ],
        [
            "B: How's the climbing gang at the Crag?",
            "A: Chalky and cheerful. They all have nicknames except me. I'm waiting to earn one.",
        ],
        [
            "A: Is the weather as grim up at the depot?",
            "B: Grey and drizzly. Dunmore in a nutshell.",
        ],
        [
            "B: Do you still have that awful bike?",
            "A: Yes, and it still squeaks. It's part of my personality now.",
        ],
        [
            "A: Did Tess finish her school project?",
            "B: A volcano made of papier-mâché. It erupted on the kitchen table. Twice.",
        ],
        [
            "B: What are you studying this week?",
            "A: Parasites. I've learned more than I ever wanted to know about worms.",
            "B: Please don't tell me about the worms.",
        ],
        [
            "A: How's the novel's title holding up? Still happy with it?",
            "B: Most days. Some days I want to call it something completely different and then I go to sleep.",
        ],
        [
            "B: Is Juniper still digging in the corner of the rug?",
            "A: Every night. She's convinced there's a tunnel to freedom under my bookcase.",
        ],
        [
            "A: How did Tess's sleepover go?",
            "B: Four nine-year-olds, zero hours of sleep, one broken lamp. A success, by her standards.",
        ],
        [
            "B: How's the flat? Still freezing?",
            "A: The heating works on alternate days. Juniper and I share a hot water bottle.",
            "B: That's either sweet or tragic.",
        ],
        [
            "A: Is the depot canteen still serving that awful coffee?",
            "B: Worse. They got a new machine and now it's awful and slow.",
        ],
        [
            "B: Do you ever get a weekend off from the shelter?",
            "A: I could, but I'd miss the dogs. There's a three-legged lurcher there called Biscuit who waits for me.",
        ],
        [
            "A: What's the hardest part of coaching, really?",
            "B: The parents on the touchline. The kids are easy. The kids just want oranges at half-time.",
        ],
        [
            "B: How's your mum? Still asking when you'll be a proper doctor?",
            "A: Weekly. I remind her that vets are proper doctors, just for patients who bite.",
        ],
        [
            "A: Do you still write in that green notebook?",
            "B: The third green notebook now. I buy them in bulk from the newsagent in Dunmore.",
        ],
        [
            "B: Are you eating anything other than toast yet?",
            "A: I made soup! From a packet, but I added a carrot, so it counts.",
        ],
        [
            "A: Are you still driving the late shift on Fridays?",
            "B: Yes, the pub crowd. Everyone's very friendly at eleven at night, and very sleepy by midnight.",
        ],
        [
            "B: Has Juniper met any other rabbits?",
            "A: A boy rabbit at the shelter. She boxed his ears. It was not love at first sight.",
        ],
        [
            "A: Does Tess read your chapters?",
            "B: She reads the battles and skips the kissing. Her notes are brutal but fair.",
        ],
        [
            "B: Are your hands still wrecked from the climbing wall?",
            "A: They're tougher now. I've stopped tearing skin every session. Small victories.",
        ],
    ],
    "sessions": [
        S(
            "Priya told Marcus about the rabbit she brought home from the shelter. Marcus said he had finished a draft of his novel.",
            """
            A: I've got a new flatmate. She has long ears and eats cardboard.
            B: You got a rabbit!
            1A: From the shelter where I volunteer. She was left in a box outside the door in January, and nobody came for her, so I took her home.
            B: What's her name?
            A: Juniper. She's a grey lop with one ear that sticks up like she's asking a question.
            B: I love her already. Tess will want to meet her.
            A: Any time. What's new with you?
            2B: I finished the first draft of The Salt Crown. Ninety-four thousand words. Two years of early mornings at the depot.
            A: Marcus! That's huge! Can I read it?
            B: When it's less embarrassing. Give me a month.
            """,
            [
                ("single-hop", 1, "Where did Priya get Juniper?"),
                ("temporal", 1, "When did Priya bring Juniper home?"),
                ("single-hop", 2, "How long is the first draft of The Salt Crown?"),
            ],
        ),
        S(
            "Marcus talked about becoming the coach of his daughter's football team.",
            """
            B: I've been roped into coaching.
            A: Tess's team?
            B: The Dunmore Otters, under-tens. The old coach moved away and nobody else put their hand up.
            A: Do you know anything about football?
            B: I know which way the goals are. That's about it.
            1B: We had our first match on Saturday and lost seven goals to one. Our goalkeeper sat down and cried in the second half.
            A: Oh, poor kid. And poor you.
            2B: The good news is the goal was Tess's. She scored from the halfway line because their keeper was picking daisies.
            A: Everyone has to start somewhere.
            B: Exactly. We're aiming for six goals to one next week.
            """,
            [
                ("single-hop", 1, "What was the score in the Otters' first match?"),
                ("single-hop", 2, "Who scored the Otters' only goal in their first match?"),
                ("temporal", 1, "When did the Otters play their first match?"),
            ],
        ),
        S(
            "Priya told Marcus she had started climbing at an indoor wall called the Crag.",
            """
            A: I've found a new way to hurt my hands.
            B: Is this a vet thing?
            A: No, climbing! There's a climbing gym in the old mill in Dunmore called the Crag.
            B: Climbing walls? Aren't those for teenagers?
            1A: Not at all. My instructor is a man called Bo who's sixty-two and climbs like a spider.
            B: I feel seen and judged.
            2A: I managed my first V2 problem on Thursday, which is a beginner grade, and then tore a callus open on the last hold.
            B: That sounds horrible.
            A: It was very satisfying, actually. Now I have a climbing injury, like a real climber.
            B: You're a strange woman, Priya.
            """,
            [
                ("single-hop", 1, "Who is Priya's climbing instructor?"),
                ("single-hop", 2, "What grade did Priya manage at the climbing gym?"),
                ("temporal", 1, "When did Priya start climbing at the Crag?"),
            ],
        ),
        S(
            "Marcus told Priya about his new bus route and a passenger who turned out to be a literary agent.",
            """
            B: Strange thing happened at work.
            A: Good strange or bad strange?
            1B: Good, I hope. They've moved me to the number fourteen, the airport route, so I get longer stops at the end.
            A: More time to write?
            B: Exactly. And that's how I met her.
            2B: A woman waiting to board saw me scribbling in my notebook and asked what it was. She's a literary agent called Ruth Okonjo, and she gave me her card.
            A: Marcus! That's like a film!
            B: She said to send her the first three chapters when I'm ready.
            A: Are you ready?
            B: Absolutely not. But I'm going to do it anyway.
            """,
            [
                ("single-hop", 1, "Which bus route does Marcus drive now?"),
                ("single-hop", 2, "Who gave Marcus her business card?"),
                ("temporal", 2, "When did Marcus meet the literary agent?"),
            ],
        ),
        S(
            "Priya described her anatomy practical exam at the vet school.",
            """
            A: Anatomy practical is over. I smell of formaldehyde and relief.
            B: How did it go?
            1A: We had to dissect the front leg of a horse and name every tendon. There are so many tendons in a horse's leg.
            B: How long did that take?
            A: Four hours. My lab partner fainted at one point, but it was hunger, not the horse.
            2A: I passed with a distinction! The examiner said my drawings of the hoof were the clearest he'd seen this year.
            B: Priya, that's amazing! All that drawing paid off.
            A: I've been sketching Juniper for years. It turns out that counts as practice.
            B: Does Juniper know she's a study aid?
            A: She'd want royalties.
            """,
            [
                ("single-hop", 1, "Which animal did Priya dissect in her anatomy exam?"),
                ("temporal", 1, "When was Priya's anatomy practical exam?"),
                ("single-hop", 2, "What grade did Priya get in the anatomy practical?"),
            ],
        ),
        S(
            "Priya told Marcus about Juniper chewing through a cable.",
            """
            A: Juniper committed a crime.
            B: What did she do?
            1A: She chewed right through my laptop charger while I was on a video call with my tutor. The screen went black mid-sentence.
            B: Is she alright? Chewing a cable sounds dangerous.
            A: It wasn't plugged in at the wall, thank goodness. She's fine. I was not fine.
            2A: I've put plastic spiral covers on every cable in the flat now. My whole room looks like a hospital ward.
            B: Did you lose any work?
            A: Two pages of notes on cattle diseases. I wrote them again from memory.
            B: Rabbits: cute, destructive.
            A: Exactly like small children, I'm told.
            """,
            [
                ("single-hop", 1, "What did Juniper chew through?"),
                ("single-hop", 2, "What did Priya put on the cables in her flat?"),
            ],
        ),
        S(
            "Marcus said the literary agent had asked to read his whole manuscript.",
            """
            B: Ruth wrote back!
            A: The agent from the bus stop? What did she say?
            1B: She loved the first three chapters and asked me to send the full manuscript. The whole thing!
            A: Marcus! That's incredible!
            B: I had to read the email four times. Then I had to sit down on the kerb.
            A: Have you sent it?
            2B: Not yet. I'm rewriting the last chapter first. The battle at the salt flats doesn't work and I know it.
            A: Don't take forever. Strike while she's interested.
            B: Two weeks. I promised Tess she'd get a mention in the acknowledgements if I hit the deadline.
            A: Now you have to.
            """,
            [
                ("single-hop", 1, "What did Ruth ask Marcus to send?"),
                ("temporal", 1, "When did Ruth ask for Marcus's full manuscript?"),
                ("single-hop", 2, "Which part of his novel is Marcus rewriting?"),
            ],
        ),
        S(
            "Priya told Marcus about a sponsored abseil for the animal shelter.",
            """
            A: I did something terrifying for the shelter.
            B: Another rabbit?
            1A: A sponsored abseil down the clock tower in the Dunmore market square. Forty metres, straight down.
            B: You're afraid of heights!
            A: I was afraid of heights. Now I'm afraid of clock towers in particular.
            2A: We raised eighteen hundred pounds between eight of us. It's going towards a new kennel block.
            B: That's brilliant. I should have sponsored you more.
            A: You gave twenty pounds and a very nice card. That's plenty.
            B: Did the climbing help?
            A: Bo came to hold the rope at the top. He said I was the only one who didn't scream.
            """,
            [
                ("single-hop", 1, "Where did Priya do the sponsored abseil?"),
                ("temporal", 1, "When did Priya abseil for the shelter?"),
                ("single-hop", 2, "How much money did the abseil raise?"),
            ],
        ),
        S(
            "Marcus celebrated the Otters' first win.",
            """
            B: We won! We actually won a match!
            A: The Otters? No way!
            1B: Three goals to two against Kirkby Juniors, and Tess scored the winner with a header in the last minute.
            A: A header! Does she even know how to do those?
            B: I don't think she meant to. The ball hit her on the head and went in. We'll call it skill.
            A: Skill all the way.
            2B: The parents carried me around the pitch and then dropped me in a puddle. The kids thought it was the best part.
            A: Has Tess calmed down?
            B: She's wearing her kit to bed. She says she'll never take it off.
            A: That's love.
            """,
            [
                ("single-hop", 1, "Who scored the Otters' winning goal?"),
                ("temporal", 1, "When did the Otters win their first match?"),
                ("single-hop", 2, "What did the parents do to Marcus after the win?"),
            ],
        ),
        S(
            "Priya started a farm placement with a vet practice in the hills.",
            """
            A: I'm on placement in the middle of nowhere.
            B: Where are you?
            1A: A farm vet practice in Glenarrow, up in the hills. One shop, one pub and eight thousand sheep.
            B: Do you like it?
            A: I love it. I'm so tired I fall asleep in the car between farms.
            2A: On Tuesday I delivered my first calf, at three in the morning, with my arm in a cow up to the shoulder.
            B: That's an image I'll keep forever.
            A: The farmer named the calf Priya. She's a very handsome heifer.
            B: A cow named after you. That's the highest honour.
            A: Juniper is staying with my flatmate. She has probably forgotten me already.
            """,
            [
                ("single-hop", 1, "Where is Priya's farm placement?"),
                ("single-hop", 2, "What did Priya deliver at three in the morning?"),
                ("temporal", 2, "When did Priya deliver her first calf?"),
            ],
        ),
        S(
            "Marcus told Priya that the agent offered to represent him, with one change to the book.",
            """
            B: Ruth offered to represent me.
            A: Marcus!! You have an agent!
            B: I have an agent. I keep saying it out loud to the bus.
            1B: But she wants me to change the ending. She says the queen can't die at the salt flats, the readers will riot.
            A: Do you agree?
            B: I hated it at first. Then I thought about it on the night route and I think she's right.
            2B: So the queen lives, and her brother, the boatman, dies instead. Tess is furious. He was her favourite.
            A: Poor Tess. Poor boatman.
            B: He had a good run.
            A: Congratulations, seriously. This is the dream.
            """,
            [
                ("single-hop", 1, "What change to the ending did Ruth ask for?"),
                ("temporal", 1, "When did Marcus get an agent?"),
                ("single-hop", 2, "Which character dies instead in the new ending?"),
            ],
        ),
        S(
            "Priya told Marcus about her first climbing competition at the Crag.",
            """
            A: I entered a climbing competition. At the Crag.
            B: How did you do?
            1A: Third in the novice category! I fell off the very last hold of the final problem, or I might have come second.
            B: Third is brilliant. You've only been climbing since the spring.
            A: Bo said the same. He bought me a hot chocolate.
            2A: And I finally got a nickname. They call me Stitches now, because I'm the one who patches everyone up.
            B: That's very fitting for a vet student.
            A: I carry a first aid kit in my chalk bag. They think it's hilarious.
            B: They'll stop laughing the first time someone needs it.
            A: Exactly!
            """,
            [
                ("single-hop", 1, "What place did Priya come in the climbing competition?"),
                ("temporal", 1, "When did Priya enter the climbing competition?"),
                ("single-hop", 2, "What nickname did the climbers give Priya?"),
            ],
        ),
        S(
            "Priya told Marcus that Juniper was ill and needed an emergency vet.",
            """
            A: Juniper had a scary night.
            B: Oh Priya. What went wrong?
            1A: She stopped eating and sat hunched in the corner. I knew it was gut stasis, it's dangerous in rabbits, they can die in a day.
            B: What did you do?
            2A: I took her to the out-of-hours clinic at midnight, and the vet on duty was my own professor, Dr Achebe. She gave her fluids and pain relief.
            B: Your professor at midnight. That must have been strange.
            A: She quizzed me the whole time. 'What's the next step, Priya?' while I was holding my poor rabbit.
            B: Is Juniper okay now?
            A: Eating hay like nothing happened. I haven't slept.
            B: Get some rest.
            """,
            [
                ("single-hop", 1, "What illness did Juniper have?"),
                ("single-hop", 2, "Who treated Juniper at the out-of-hours clinic?"),
                ("temporal", 1, "When did Juniper get ill?"),
            ],
        ),
        S(
            "Marcus told Priya that a publisher had bought The Salt Crown.",
            """
            B: Priya. Sit down.
            A: I'm sitting. What's happened?
            1B: The Salt Crown sold! To Bellweather Books. A two-book deal.
            A: MARCUS! You're going to be a published author!
            B: I cried in the depot toilets. Then I drove the number fourteen like nothing had happened.
            2B: It comes out next autumn. They want the second book, the sequel, a year after that.
            A: A sequel! Do you know what happens in it?
            B: Roughly. The boatman might come back as a ghost. Tess suggested that.
            A: Tess should get a writing credit.
            B: She's already asking for a percentage.
            """,
            [
                ("single-hop", 1, "Which publisher bought The Salt Crown?"),
                ("temporal", 1, "When did Marcus sell his novel?"),
                ("single-hop", 2, "When is The Salt Crown coming out?"),
            ],
        ),
        S(
            "Marcus talked about the end of the Otters' season.",
            """
            B: The season's over for the Otters.
            A: How did they finish?
            B: Second from bottom. Out of eight. Massive improvement.
            1B: But we won the fair play trophy for the whole league! No yellow cards all season and the kids shook hands with every team.
            A: That's the best trophy to win, honestly.
            B: The kids don't think so. They wanted the big shiny one.
            2B: The club asked me to stay on next season, so I've signed up for a coaching badge course in Kirkby over the summer.
            A: Coach Marcus, officially.
            B: With a certificate and everything.
            A: Tess must be proud.
            """,
            [
                ("single-hop", 1, "What trophy did the Otters win?"),
                ("single-hop", 2, "What course did Marcus sign up for over the summer?"),
            ],
        ),
        S(
            "Priya told Marcus she wants to specialise in exotic animals.",
            """
            A: I think I know what I want to do after I qualify.
            B: Farm vet in Glenarrow?
            A: I loved it, but no.
            1A: Exotic animals. Reptiles, birds, rabbits like Juniper. Most vets know very little about them and the animals suffer for it.
            B: Makes sense. You've been a rabbit expert for years.
            2A: I applied for a summer internship at the wildlife park in Kestrel Bay. They have a lemur family and a very old tortoise.
            B: How old?
            A: They think he's about a hundred and ten. His name is Gerald.
            B: I'd like to meet Gerald.
            A: If I get in, I'll introduce you.
            """,
            [
                ("single-hop", 1, "What kind of animals does Priya want to specialise in?"),
                ("single-hop", 2, "Where did Priya apply for a summer internship?"),
                ("temporal", 2, "When did Priya apply for the internship at the wildlife park?"),
            ],
        ),
        S(
            "Marcus showed Priya the cover and the map of The Salt Crown.",
            """
            B: I've got the cover for The Salt Crown! I'll send you a picture.
            A: Oh, that's gorgeous. Is that the queen on the cliff?
            B: It is. And the salt flats behind her, all white and silver.
            1B: And the map inside is by Tess. She drew the kingdom in felt tips and the publisher's designer traced it properly.
            A: No way! Tess drew the map?
            B: She's nine and she's already in print before me.
            2B: The launch party is going to be at the Dunmore library, and Ruth is coming up from London for it.
            A: I'll be there. I'm bringing Juniper.
            B: Please don't bring Juniper to a library.
            A: Fine. Just me, then.
            """,
            [
                ("single-hop", 1, "Who drew the map for The Salt Crown?"),
                ("single-hop", 2, "Where is the book launch party going to be?"),
                ("temporal", 1, "When did Marcus get the cover of his book?"),
            ],
        ),
    ],
    "multi": [
        ("What has Ruth Okonjo done for Marcus and his book?", (4, 11)),
        ("What has Juniper chewed, and what illness has she had?", (6, 13)),
        ("How did the Otters do in their first match and in their first win?", (2, 9)),
        ("What has Priya achieved at the Crag and on the clock tower?", (8, 12)),
        ("What has Tess contributed to The Salt Crown?", (11, 17)),
    ],
    "none": [
        "What breed is Marcus's dog?",
        "When did Priya move to Dunmore?",
        "How much did Marcus get paid for the film rights?",
    ],
}

LENA_OSKAR: dict[str, Any] = {
    "people": ("Lena", "Oskar"),
    "greetings": [
        ["B: Lena! How's my favourite photographer?", "A: Hi Oskar! Sunburnt and happy. You?"],
        [
            "A: Oskar, are you still at the shop?",
            "B: Just locking up. Rolo is waiting by the door like a little sausage-shaped guard.",
        ],
        [
            "B: Hey, do you have a few minutes?",
            "A: For you, always. I'm editing photos, a break would be welcome.",
        ],
        [
            "A: Hello! It's been ages. What's going on in Ashby?",
            "B: Lena! Loads, as usual. How's Bellhaven?",
        ],
        ["B: Are you back from the coast yet?", "A: Back since lunchtime. Hi! Tell me your news."],
    ],
    "goodbyes": [
        [
            "A: I've got three hundred photos to edit before Friday. Speak soon, Oskar.",
            "B: Good luck! Speak soon.",
        ],
        [
            "B: Band practice in twenty minutes. I should find my ukulele. Bye Lena!",
            "A: Bye! Play something sad for me.",
        ],
        ["A: Mum's calling me for dinner. Talk later!", "B: Give Greta my love."],
        [
            "B: Rolo needs his walk before it gets dark. Catch up again soon?",
            "A: Yes please. Bye for now!",
        ],
    ],
    "plain": [
        "{A} and {B} spoke at {when}.",
        "{B} and {A} had a chat at {when}.",
        "At {when}, {A} and {B} talked.",
    ],
    "chat": [
        [
            "A: How's Rolo?",
            "B: Demanding. He's decided he only eats if I sit on the kitchen floor with him.",
            "A: He's got you trained.",
        ],
        [
            "B: How's your mum doing?",
            "A: Better every week. She's bossing the neighbours around again, which is a good sign.",
        ],
        [
            "A: Is the shop busy?",
            "B: Mornings are quiet, then everyone in Ashby gets a puncture at four o'clock.",
        ],
        [
            "B: Have you been out on the water lately?",
            "A: Only once this week. The wind off Bellhaven was too strong the other days.",
        ],
        [
            "A: How's the band sounding?",
            "B: Like four people who love each other and can't count to four. Charming, I'd say.",
        ],
        [
            "B: Any weddings this weekend?",
            "A: Two. One in a barn and one in a church with a very strict vicar. No flash allowed.",
        ],
        [
            "A: Do you still ride to work?",
            "B: Of course. A bike mechanic who drives would lose all respect in Ashby.",
        ],
        [
            "B: Is Bellhaven full of tourists?",
            "A: Full. You can't get a table anywhere on the front. I eat chips on the harbour wall like a seagull.",
        ],
        [
            "A: Does Rolo come to the shop every day?",
            "B: Every day. He has a basket by the till and the customers bring him treats. He's getting round.",
        ],
        [
            "B: What camera are you using these days?",
            "A: The same old one. The grip is worn smooth but I know it like my own hand.",
        ],
        [
            "A: Have you had any strange repairs lately?",
            "B: A tandem with a sidecar. I didn't know those existed. Now I can't stop thinking about it.",
        ],
        [
            "B: Does your mum still do the crossword?",
            "A: Every morning, in pen. She finishes it before I've had my coffee.",
        ],
        [
            "A: Is it still just you at the shop?",
            "B: Me and Rolo. He's in charge of customer relations.",
        ],
        [
            "B: How are your shoulders from all the paddling?",
            "A: Stronger. I can open any jar now. It's my party trick.",
        ],
        [
            "A: What are you playing with the band at the moment?",
            "B: Old sea shanties mostly. They sound surprisingly good on ukuleles.",
        ],
        [
            "B: Are you still editing at night?",
            "A: Mostly. It's the only time the house is quiet and Mum isn't asking me to move furniture.",
        ],
        [
            "A: Has Ashby changed much since you moved there?",
            "B: More cafés, fewer hardware shops. Same hills, sadly.",
        ],
        [
            "B: Did you see the storm last week?",
            "A: I watched it from Mum's window. The waves were over the harbour wall.",
        ],
        [
            "B: How many photos did you take at the last wedding?",
            "A: Two thousand one hundred. I'll keep about four hundred. The rest are blinks and uncles eating.",
        ],
        [
            "A: Has Rolo made any new friends on the high street?",
            "B: The butcher. For obvious reasons. Rolo drags me past his window twice a day.",
        ],
        [
            "B: Is your mum still doing her exercises?",
            "A: When I'm watching. When I'm not, she's up a ladder cleaning the windows.",
            "B: Classic Greta.",
        ],
        [
            "A: How are the hills around Ashby for cycling this time of year?",
            "B: Beautiful and cruel. Every view costs you a lung.",
        ],
        [
            "B: Are you still paddling with the Bellhaven group?",
            "A: On Thursday evenings. We're mostly retired people and one very serious teenager.",
        ],
        [
            "A: What's the most common repair at the shop?",
            "B: Punctures, then brakes, then people who have put their front wheel on backwards. Every week, at least one.",
        ],
        [
            "B: Do you ever photograph anything that isn't a wedding?",
            "A: Seals, boats, my mum's cat. The fun stuff, for nobody but me.",
        ],
        [
            "A: Are you still practising the ukulele every night?",
            "B: Twenty minutes. Rolo howls along to the minor chords. He's got an ear.",
        ],
        [
            "B: What's the harbour like in Bellhaven this time of year?",
            "A: Quiet in the mornings. The fishing boats come in around seven and the gulls go mad.",
        ],
        [
            "A: Did you ever paint the shop sign?",
            "B: Half of it. Spoke and Ge. I ran out of green.",
        ],
        [
            "B: Are you sleeping alright at your mum's?",
            "A: In my childhood bedroom under a poster of a pop band I won't name. It's humbling.",
        ],
        [
            "A: How's Rolo with other dogs at the shop?",
            "B: He barks at big ones and hides from small ones. There's no logic to it.",
        ],
        [
            "B: Are you editing on that tiny laptop still?",
            "A: Yes, and it sounds like a hairdryer when I open the big files. One day it will simply take off.",
        ],
        [
            "A: Is the band still rehearsing at the church hall?",
            "B: We got kicked out for being too loud, so we rehearse in my shop now, among the inner tubes.",
        ],
        [
            "B: Have you had any time for yourself lately?",
            "A: A swim in the sea this morning, before anyone was up. Ten minutes of pure silence.",
        ],
    ],
    "sessions": [
        S(
            "Oskar told Lena he had signed the lease for a bike repair shop in Ashby.",
            """
            B: I did it. I signed the lease for the shop.
            A: Oskar! The one on the high street?
            1B: The old bakery on Mill Lane in Ashby. It still has the bread ovens in the back, and it smells faintly of toast.
            A: A bike shop that smells of toast. People will come just for that.
            B: That's the plan. Toast-based marketing.
            2B: I'm calling it Spoke and Gear. My ukulele band voted on it. Their other ideas were worse.
            A: What were the others?
            B: 'Wheel Meet Again' and 'Chain of Fools'.
            A: Spoke and Gear is lovely. Is Rolo going to work there?
            B: Rolo is head of security. He's eleven inches tall.
            """,
            [
                ("single-hop", 1, "What was Oskar's shop building before it was a bike shop?"),
                ("temporal", 1, "When did Oskar sign the lease for his shop?"),
                ("single-hop", 2, "Who chose the name Spoke and Gear?"),
            ],
        ),
        S(
            "Lena told Oskar that her mother had surgery and she was staying in Bellhaven to help.",
            """
            A: I'm staying with Mum in Bellhaven for a few weeks.
            B: Is Greta alright?
            1A: She had her hip replaced on Monday. It went well, but she can't do stairs or drive for six weeks.
            B: Poor Greta. She must hate that.
            A: She hates it with all her heart. She's already tried to hoover twice.
            2A: The physio gave her a frame with tennis balls on the feet, and she's painted them yellow so it looks less like a hospital thing.
            B: That's very Greta.
            A: I'm working from her kitchen table. Editing wedding photos while she shouts crossword clues at me.
            B: Say hello from me.
            A: She says you still owe her a bike ride.
            """,
            [
                ("single-hop", 1, "What surgery did Lena's mother have?"),
                ("single-hop", 2, "What did Greta paint yellow?"),
                ("temporal", 1, "When did Greta have her operation?"),
            ],
        ),
        S(
            "Oskar told Lena that his dog Rolo was stung by a bee.",
            """
            B: Rolo had a very bad day.
            A: Oh no. What happened?
            1B: He tried to eat a bee in the garden. It stung him on the lip and his whole face swelled up like a balloon.
            A: Poor Rolo! Is he alright?
            2B: The vet gave him an antihistamine injection and the swelling went down by the evening. He slept on my feet all night.
            A: Did he learn his lesson?
            B: He barked at a fly this morning, so maybe.
            A: Dachshunds are so brave and so silly.
            B: That's the whole breed in one sentence.
            A: Give him a kiss from me.
            """,
            [
                ("single-hop", 1, "What happened to Rolo's face?"),
                ("single-hop", 2, "What did the vet give Rolo?"),
                ("temporal", 1, "When was Rolo stung by a bee?"),
            ],
        ),
        S(
            "Lena bought a second-hand sea kayak and took it out for the first time.",
            """
            A: I bought a kayak!
            B: A real one? For the sea?
            1A: A second-hand sea kayak, bright yellow. I've named her Puffin. A retired fisherman in Bellhaven sold her to me for two hundred pounds.
            B: Bargain. Have you been out in it?
            2A: Yesterday morning I paddled out to Gull Island and back. Two hours, and seals followed me for part of the way.
            A: I've never felt so far from my laptop.
            B: Did you take the camera?
            A: In a dry bag, yes. I'll send you the seal pictures.
            B: Be careful out there, Lena. The sea is no joke.
            A: I know, I know. I wear the life jacket, I tell Mum where I'm going.
            """,
            [
                ("single-hop", 1, "What did Lena name her kayak?"),
                ("single-hop", 2, "Where did Lena paddle on her first trip in the kayak?"),
                ("temporal", 1, "When did Lena buy her kayak?"),
            ],
        ),
        S(
            "Oskar described his ukulele band's performance at the Ashby summer fête.",
            """
            B: We played the summer fête! Our first real gig.
            A: The Plucky Four on stage! How was it?
            B: There wasn't a stage. We played on a hay bale next to the tombola.
            A: Very rock and roll.
            1B: We closed with a ukulele version of Bohemian Rhapsody, all six minutes, and the crowd sang the whole thing.
            A: On ukuleles? That's ambitious.
            2B: Best of all, we won the fête's talent cup. It was us against a magician and a dog that counts.
            A: You beat a counting dog?
            B: The dog counted to three and then sat down. It wasn't close.
            A: Rolo could do better.
            """,
            [
                ("single-hop", 1, "What song did Oskar's band close with at the fête?"),
                ("temporal", 1, "When did the Plucky Four play the summer fête?"),
                ("single-hop", 2, "What did the band win at the fête?"),
            ],
        ),
        S(
            "Lena told Oskar about a windy clifftop wedding she photographed.",
            """
            A: I had the most dramatic wedding this weekend.
            B: Dramatic how? Someone said no?
            A: Nobody said no. The weather said no.
            1A: It was on the cliffs above Bellhaven, and right after the vows a gust took the bride's veil and carried it out over the sea.
            B: No! Did they get it back?
            2A: A kayaker below caught it with his paddle. I got the whole thing on camera: the veil in the air, the bride laughing, the kayaker reaching up.
            B: That sounds like the photo of the year.
            A: It might be. The couple want it framed above their fireplace.
            B: Was the kayaker anyone you know?
            A: A man from my paddling group! Small town.
            """,
            [
                ("single-hop", 1, "What happened to the bride's veil at the clifftop wedding?"),
                ("single-hop", 2, "Who caught the bride's veil?"),
                ("temporal", 1, "When did Lena photograph the clifftop wedding?"),
            ],
        ),
        S(
            "Oskar told Lena about the opening day of Spoke and Gear.",
            """
            B: Spoke and Gear is open!
            A: Congratulations! How was the first day?
            1B: My first customer was the postman, with a snapped chain, at eight in the morning. I fixed it while he had a coffee.
            A: A postman! That feels like a good omen.
            B: He's told the whole of Ashby by now, I think.
            2B: By closing time I'd sold three second-hand bikes and done eleven repairs. I counted the till three times.
            A: That's a great start!
            B: Rolo greeted everyone at the door and fell asleep in the window by the afternoon.
            A: He's the shop's best advert.
            B: People keep asking if he's for sale. He is not for sale.
            """,
            [
                ("single-hop", 1, "Who was the first customer at Spoke and Gear?"),
                ("temporal", 1, "When did Spoke and Gear open?"),
                ("single-hop", 2, "How many bikes did Oskar sell on his first day?"),
            ],
        ),
        S(
            "Lena shared that her mother is walking again and has taken up a new hobby.",
            """
            A: Good news from Bellhaven. Mum's walking with just a stick now.
            B: Greta! That's wonderful.
            A: She walked to the harbour and back yesterday. Slowly, but she did it.
            1A: And she's taken up watercolours, to keep her busy while she's resting. She paints the boats from her window every morning.
            B: Is she any good?
            A: Better than me, and I do pictures for a living. It's very annoying.
            2A: The library asked to show her paintings in the entrance hall next spring. She pretends she doesn't care and she's thrilled.
            B: An exhibition! Tell her I'll come.
            A: She'll make you buy one.
            B: I'll hang it in the shop.
            """,
            [
                ("single-hop", 1, "What hobby did Lena's mum take up while recovering?"),
                ("single-hop", 2, "Where will Greta's paintings be shown?"),
                ("temporal", 1, "When did Greta start walking with just a stick?"),
            ],
        ),
        S(
            "Lena told Oskar she capsized her kayak near Gull Island.",
            """
            A: Don't be cross, but I fell in.
            B: Out of the kayak? Lena!
            1A: I capsized near Gull Island when a big wave from a ferry caught me side-on. The water was so cold I couldn't breathe for a second.
            B: How did you get out?
            A: I swam Puffin to the rocks, emptied her out, and paddled back shivering. I was fine, really.
            2A: I've booked a course to learn the roll, the one where you flip back up without getting out. Six sessions in the pool at the leisure centre.
            B: Good. I'll sleep better.
            A: You sound like my mother.
            B: Your mother would have said worse.
            A: She did. For an hour.
            """,
            [
                ("single-hop", 1, "Why did Lena capsize near Gull Island?"),
                ("temporal", 1, "When did Lena capsize her kayak?"),
                ("single-hop", 2, "What course did Lena book after capsizing?"),
            ],
        ),
        S(
            "Oskar told Lena that Spoke and Gear was broken into.",
            """
            B: Someone broke into the shop on Sunday night.
            A: Oh no, Oskar. Is everything okay?
            1B: They took two electric bikes from the repair stand. Both belonged to customers, which is the worst part.
            A: That's awful. How did they get in?
            B: Through the back door by the old ovens. The lock was ancient.
            2B: Rolo was asleep in the flat upstairs and started barking like mad. My neighbour heard him and called the police.
            A: Did they catch anyone?
            B: Not yet, but one of the bikes was found in a ditch near the station the next day.
            A: Rolo, the hero.
            B: He's had double dinner ever since.
            """,
            [
                ("single-hop", 1, "What was stolen from Oskar's shop?"),
                ("single-hop", 2, "Who alerted the neighbour during the break-in?"),
                ("temporal", 1, "When was Spoke and Gear broken into?"),
            ],
        ),
        S(
            "Lena won a photography award for her photo of the flying veil.",
            """
            A: You'll never guess what happened.
            B: Tell me!
            1A: The veil photo from the clifftop wedding won the national wedding photography award, in the moment category.
            B: Lena! That's huge!
            A: I screamed so loudly that Mum dropped her paintbrush.
            2A: The prize is a week-long landscape workshop in Iceland, in October. Glaciers, black beaches, and hopefully the northern lights.
            B: You deserve it. That photo is magic.
            A: I still can't believe it. I nearly didn't take the wedding, it was so windy in the forecast.
            B: The wind made the photo.
            A: I'll thank the wind in my speech.
            """,
            [
                ("single-hop", 1, "What award did Lena's veil photo win?"),
                ("temporal", 1, "When did Lena win the photography award?"),
                ("single-hop", 2, "What is the prize for Lena's award?"),
            ],
        ),
        S(
            "Oskar said his ukulele band recorded their first songs in the shop.",
            """
            B: The band recorded an EP!
            A: An actual record? Where?
            1B: In the shop, after closing. We pushed the bikes to the walls and hung blankets from the ceiling to stop the echo.
            A: I love that so much.
            B: You can hear a bike bell on one track. We decided to keep it.
            2B: It's called Chain Reaction, five songs, three of them shanties. We're selling it at the till in Spoke and Gear.
            A: I'll buy ten copies.
            B: You'll buy one and listen to it once, like a normal friend.
            A: I'll buy two. One for Mum.
            B: Greta would love the shanties, actually.
            """,
            [
                ("single-hop", 1, "Where did the band record their EP?"),
                ("single-hop", 2, "What is the band's EP called?"),
                ("temporal", 1, "When did Oskar's band record their EP?"),
            ],
        ),
        S(
            "Oskar told Lena that Rolo has a back problem.",
            """
            B: Rolo's back went on Tuesday.
            A: Oh no. Is he in pain?
            1B: He yelped when he jumped off the sofa. The vet says it's a disc problem, very common in dachshunds, and he's on crate rest for a month.
            A: A whole month? Poor little man.
            B: He's furious about it. He gives me the saddest eyes through the bars.
            2B: No more stairs or jumping, ever. I built him a ramp up to the sofa from an old wheel rim and offcuts from the shop.
            A: A ramp made of bike parts. That's so you.
            B: It has a bell on it. He hasn't figured that out yet.
            A: Send me a picture when he uses it.
            B: If he ever forgives me.
            """,
            [
                ("single-hop", 1, "What is wrong with Rolo's back?"),
                ("temporal", 1, "When did Rolo hurt his back?"),
                ("single-hop", 2, "What did Oskar build for Rolo?"),
            ],
        ),
        S(
            "Lena came back from the Iceland workshop and told Oskar about it.",
            """
            A: I'm back from Iceland!
            B: Welcome home! Did you see them?
            1A: The northern lights? Yes! On the fourth night, green and purple over a glacier lagoon. I stood in the cold for three hours.
            B: I'm so jealous.
            A: I cried a little, but it was minus ten, so the tears froze.
            2A: The workshop leader was Sigrún Hall, who shot the cover of that big travel magazine. She said my horizon lines were too timid.
            B: Timid? You?
            A: I know! I've been tilting the camera ever since.
            B: Did you bring me anything?
            A: A tin of liquorice that tastes like the sea. You'll hate it.
            """,
            [
                ("single-hop", 1, "What did Lena see on the fourth night in Iceland?"),
                ("single-hop", 2, "Who led Lena's workshop in Iceland?"),
                ("temporal", 1, "When did Lena get back from Iceland?"),
            ],
        ),
        S(
            "Oskar said he would run a bike repair club for children at the school in Ashby.",
            """
            B: I've been asked to teach kids to fix bikes.
            A: That's lovely. Where?
            1B: At the primary school in Ashby, an after-school club on Wednesdays. Twelve children and twelve very broken bikes.
            A: Are you nervous?
            B: Terrified. Bikes I understand. Ten-year-olds, less so.
            2B: The headteacher asked if you could come and photograph the first session for the school newsletter.
            A: Of course I will. I'll bring my timid horizons.
            B: Bring Rolo treats too. He's coming as the mascot.
            A: Is his back well enough?
            B: He'll ride in the bike trailer. Like royalty.
            """,
            [
                ("single-hop", 1, "Where will Oskar run the bike repair club?"),
                ("single-hop", 2, "What did the headteacher ask Lena to do?"),
                ("temporal", 1, "When was Oskar asked to run the children's bike club?"),
            ],
        ),
    ],
    "multi": [
        ("What has happened to Rolo's health, from the garden to the sofa?", (3, 13)),
        (
            "What happened to Lena on the water near Gull Island, on her first trip and later?",
            (4, 9),
        ),
        ("What has the Plucky Four performed and recorded?", (5, 12)),
        ("What came of the veil photo Lena took at the clifftop wedding?", (6, 11)),
        ("How has Greta spent her recovery from the operation?", (2, 8)),
    ],
    "none": [
        "What did Oskar name his second shop?",
        "When did Lena move to Bellhaven?",
        "How much did Lena pay for her new camera lens?",
    ],
}

DIALOGUE: dict[str, Any] = {"dirs": [PRIYA_MARCUS, LENA_OSKAR]}
