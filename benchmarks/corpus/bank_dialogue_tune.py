"""Dialogue dirs of the tune corpus (twenty-second session): two friends' chat sessions.

Written for this project in LoCoMo's shape (see dialogue_dirs.py); the holdout's bank has other
people, places and events, and no sentence in common with this one.
"""

from __future__ import annotations

from typing import Any

from dialogue_dirs import S

IRIS_DMITRI: dict[str, Any] = {
    "people": ("Iris", "Dmitri"),
    "greetings": [
        [
            "A: Hey Dmitri! Long week, but I finally have a quiet evening. How are you doing?",
            "B: Iris! Good to hear from you. Tired, but the good kind of tired.",
        ],
        [
            "B: Evening, Iris. Got a minute to catch up?",
            "A: Always. I just got Pepper settled on the sofa, so I'm all yours.",
        ],
        [
            "A: Dmitri, hi! Sorry I went quiet for a few days, the ward has been chaos.",
            "B: No apology needed. I've been buried in marking anyway.",
        ],
        [
            "B: Hi Iris, how's life down in Wexley?",
            "A: Windy, as always. Good though. How's Fallowmere treating you?",
        ],
        [
            "A: Hello hello! Are you free to chat for a bit?",
            "B: I am. Mochi is asleep on my lesson plans, so I can't work anyway.",
        ],
    ],
    "goodbyes": [
        [
            "A: I should get some sleep before my shift. Talk soon, Dmitri!",
            "B: Sleep well, Iris. Give Pepper a scratch from me.",
        ],
        [
            "B: Right, the quartet is rehearsing in an hour, I have to go. Take care!",
            "A: Have fun, and say hi to the others for me.",
        ],
        [
            "A: Okay, Pepper is staring at the door, walk time. Bye for now!",
            "B: Bye! Let's talk again next week.",
        ],
        ["B: I'll let you go. Lovely to catch up as always.", "A: You too. Speak soon!"],
    ],
    "plain": [
        "{A} and {B} had a conversation at {when}.",
        "At {when}, {A} and {B} caught up.",
        "{B} and {A} chatted at {when}.",
    ],
    "chat": [
        [
            "B: How is Pepper settling in these days?",
            "A: She still sleeps about twenty hours a day. Greyhounds are basically very fast cats.",
            "B: Mochi would approve of that lifestyle.",
        ],
        [
            "A: Did the quartet rehearse this week?",
            "B: Twice. We spent one whole evening on eight bars. That's chamber music for you.",
            "A: Eight bars! You're all very patient people.",
        ],
        [
            "B: Any progress on the Marigold?",
            "A: A little. Dad and I sanded the deck on Sunday. It's slow, but I like the slowness of it.",
        ],
        [
            "A: How's the garden plot?",
            "B: Weeds winning, me losing. The allotment in Fallowmere is a full-time job some weeks.",
            "A: At least the weeds don't answer back like your students.",
        ],
        [
            "B: Are the night shifts still getting to you?",
            "A: Some weeks. I keep the blackout curtains shut and Pepper keeps me company when I sleep in the day.",
        ],
        [
            "A: What's Mochi been up to?",
            "B: Sitting in the sink. I don't know why. She has a perfectly good bed.",
            "A: Cats are a mystery.",
        ],
        [
            "B: Is Wexley busy with tourists yet?",
            "A: Starting to be. The harbour car park is full every weekend now, and the chip shop queue goes round the corner.",
        ],
        [
            "A: Have your students calmed down after the exams?",
            "B: Not really. The ones who finished are bored, and the ones who didn't are panicking.",
        ],
        [
            "B: How's your dad doing?",
            "A: Good! He treats the Marigold like a third child. I think he talks to her when I'm not there.",
        ],
        [
            "A: Do you ever practise the cello at home with Mochi around?",
            "B: I do, and she leaves the room every time. Everyone's a critic.",
        ],
        [
            "B: Did you get out for a walk today?",
            "A: Along the cliff path with Pepper. She saw a rabbit and forgot she was retired for about three seconds.",
        ],
        [
            "A: Are you still cycling to school?",
            "B: Most days. The hill out of Fallowmere is brutal, but it wakes me up better than coffee.",
        ],
        [
            "B: How's Theo doing?",
            "A: Theo is Theo. Busy, cheerful, never answers his phone. We had lunch last week and he talked the whole time.",
        ],
        [
            "A: Is the allotment committee still arguing about the compost?",
            "B: Endlessly. There are two camps now. I try to stay neutral and hide behind my beans.",
        ],
        [
            "B: Do you still want to learn to sail properly?",
            "A: I do. Being on the water is the only time my brain goes quiet after the ward.",
        ],
        [
            "A: What are you reading at the moment?",
            "B: A book about the history of the cello, of course. My friends despair of me.",
        ],
        [
            "B: Is the hospital still short of staff?",
            "A: Very. Everyone is covering everyone. We get by with tea and dark jokes.",
        ],
        [
            "A: Has Mochi forgiven you for the vet trip?",
            "B: Mostly. She sat with her back to me for a whole evening, which was very pointed.",
        ],
        [
            "B: Did Pepper like the new lead?",
            "A: She likes anything that means a walk. She's not fussy about equipment, only about sofas.",
        ],
        [
            "A: How is the quartet getting on as people, not just as players?",
            "B: We fight about tempos and then go to the pub. It's a good system.",
        ],
        [
            "A: Do you have a concert coming up?",
            "B: Nothing booked, but we're working on a Shostakovich quartet that makes everyone miserable in a good way.",
            "A: Miserable in a good way is very on brand for you.",
        ],
        [
            "B: How are things on the ward this week?",
            "A: A full moon and a bank holiday in the same week. You can imagine.",
            "B: I can't, and I don't want to.",
        ],
        [
            "A: Has the allotment given you anything to eat yet?",
            "B: Radishes. So many radishes. Do you want radishes? Everyone in Fallowmere is sick of my radishes.",
        ],
        [
            "B: Does Pepper still do the zoomies?",
            "A: Once a day, in the park, for exactly thirty seconds. Then she lies down as if she's run a marathon.",
            "B: Relatable.",
        ],
        [
            "A: Are you still doing the parents' evenings?",
            "B: Two more. I've said the word 'potential' about three hundred times this month.",
        ],
        [
            "B: Did you sleep at all after the last night shift?",
            "A: Four hours. Pepper woke me up by putting her whole nose in my ear.",
            "B: The most effective alarm clock.",
        ],
        [
            "A: How's the cello? Still the same old one?",
            "B: Same old one. It has a crack near the f-hole that I'm pretending not to see.",
        ],
        [
            "B: Is your dad still working on the Marigold every day?",
            "A: Every day he's allowed. Mum has banned boat talk at dinner, so he whispers it to me in the kitchen.",
        ],
        [
            "A: What's Mochi's latest hobby?",
            "B: Knocking pens off my desk one at a time while looking me in the eye.",
            "A: She's testing gravity. Very scientific. She takes after you.",
        ],
        [
            "B: Have you been to the Wexley market lately?",
            "A: On Saturday. I bought far too much cheese and a plant I will definitely kill.",
        ],
        [
            "A: Are your colleagues at school still doing the running club?",
            "B: They are, and they keep inviting me. I keep saying I'm a cellist, not a runner.",
        ],
        [
            "B: Do you ever get a proper lunch break at the hospital?",
            "A: I eat a sandwich standing up in the sluice room. Very glamorous.",
            "B: I'm sending you soup.",
        ],
        [
            "A: Is the weather any better up in Fallowmere?",
            "B: It rained for nine days straight. My beans are thrilled. I am not.",
        ],
        [
            "B: What does Pepper do when you're on shift?",
            "A: My neighbour pops in to let her out. Pepper thinks the neighbour is her real mother now.",
        ],
        [
            "A: Did the quartet ever settle the argument about the second movement?",
            "B: We voted. I lost. We're playing it slower than I want, and it's probably better.",
        ],
    ],
    "sessions": [
        S(
            "Iris told Dmitri about adopting a retired racing greyhound named Pepper. Dmitri talked about his new string quartet.",
            """
            A: Big news: I adopted a dog! She's a retired racing greyhound called Pepper.
            B: Iris, that's wonderful! Where did you find her?
            1A: Through a greyhound rescue in Harrow. They retire the racers at four or five and foster them until someone takes them home.
            B: So she's four or five? That's still young.
            A: She's four. She's grey with a white chest and the saddest eyes you've ever seen until you pick up her lead.
            B: How's she handling stairs? I've heard racers have never seen a staircase.
            A: That's exactly it! She stood at the bottom of mine for ten minutes. We practised with treats.
            B: My news is smaller. I've joined a string quartet. Four teachers and a retired dentist, in Fallowmere.
            A: Five people in a quartet?
            B: The dentist is our page-turner and critic. We rehearse in the church hall on Thursdays.
            A: I love that. I'll come to your first concert, Pepper or no Pepper.
            """,
            [
                ("single-hop", 1, "Where did Iris adopt Pepper from?"),
                ("temporal", 1, "When did Iris adopt Pepper?"),
            ],
        ),
        S(
            "Dmitri described the damage an animal did to his allotment. Iris shared tips from her father about protecting beds.",
            """
            B: I had a small disaster at the allotment this week.
            A: Oh no, what happened?
            1B: Something dug up every single bed overnight. The man on the next plot set up a camera and it was a badger. A big one.
            A: A badger! They're so strong. What did it take?
            B: Nothing, that's the insulting part. It was after the worms and grubs. It just tore out my heirloom tomato seedlings on the way.
            A: My dad had the same thing years ago. He buried chicken wire under the edges of the beds.
            B: Did it work?
            A: The badger went to the neighbour's garden instead. Which is sort of working.
            2B: I've replanted with tomatoes from the school greenhouse. My year nines grew them, so they're very proud and very leggy.
            A: Leggy tomatoes grown by teenagers. That's a metaphor for something.
            """,
            [
                ("single-hop", 1, "What animal dug up Dmitri's allotment beds?"),
                ("single-hop", 2, "Where did Dmitri get the replacement tomato plants?"),
            ],
        ),
        S(
            "Iris reported a setback on the sailboat she is restoring with her father.",
            """
            A: The Marigold had some bad news for us this weekend.
            B: Your dad's boat? What happened?
            1A: We took off the old paint at the back and found rot in the transom. Soft as cake when you press it.
            B: Is that fixable? I have no idea what a transom even is.
            A: It's the flat back of the boat. Fixable, but it means cutting out the rotten wood and fitting new oak.
            2A: Dad found a timber yard in Cobb's Landing that still sells seasoned oak for boats, so we ordered two planks from them.
            B: That sounds expensive.
            A: It is. Dad says it's cheaper than a midlife crisis. He's seventy-one, so I'm not sure which crisis he means.
            B: Ha! How long will the repair take?
            A: Most of the spring, I think. Every job on a wooden boat takes three times as long as you expect.
            """,
            [
                ("single-hop", 1, "What problem did Iris find in the Marigold's transom?"),
                ("single-hop", 2, "Where did Iris's dad order the oak planks from?"),
                ("temporal", 1, "When did Iris discover the rot in the Marigold?"),
            ],
        ),
        S(
            "Dmitri told Iris about the quartet's first concert at the Fallowmere library. Iris was there with Pepper.",
            """
            A: Thank you for the concert! Pepper behaved better than the toddler in the front row.
            B: Thank you for coming! I was so nervous my bow was shaking in the first movement.
            A: I couldn't tell at all. What was the big piece at the end called again?
            1B: Dvořák's American quartet. The viola has the opening tune, so Hester got all the glory.
            A: It was beautiful. The slow part made the librarian cry.
            B: She told me she cried at the Mozart too, so I don't know if it counts.
            2B: And did you see Mochi's crime? I left her in the car carrier during the interval and she chewed through the zip.
            A: I saw you chasing a cat around the car park, yes. I assumed it was part of the show.
            B: She's banned from all future concerts.
            A: Pepper will take her ticket.
            """,
            [
                (
                    "single-hop",
                    1,
                    "Which piece did Dmitri's quartet play at the end of the library concert?",
                ),
                ("temporal", 1, "When did Dmitri's quartet play its first concert?"),
                ("single-hop", 2, "What did Mochi do during the concert interval?"),
            ],
        ),
        S(
            "Iris told Dmitri she had signed up for an advanced trauma course.",
            """
            A: I've signed up for something terrifying.
            B: Skydiving?
            1A: Worse. An advanced trauma life support course in Norbridge, four weekends in a row, with an exam at the end.
            B: That sounds like it will eat your whole spring.
            A: It will. But the ward sees more road accidents every year, and I want to be the calm one in the room.
            B: You are already the calm one. I've seen you deal with my nosebleed.
            A: Your nosebleed was not a trauma case, Dmitri, you were just very dramatic about it.
            2A: The hospital is paying half the fee, and my manager said a pass would count towards the senior nurse grade.
            B: Then it's an investment. I'll quiz you if you want, I love flashcards.
            A: You love being a teacher, is what you love.
            """,
            [
                ("single-hop", 1, "What course did Iris sign up for in Norbridge?"),
                ("single-hop", 2, "How much of Iris's course fee is the hospital paying?"),
            ],
        ),
        S(
            "Dmitri shared that his students won the regional science fair with a water filter project.",
            """
            B: I'm so proud I might burst. My sixth formers won the regional science fair.
            A: Dmitri! That's brilliant! What was their project?
            1B: A cheap water filter made from charcoal from burnt coconut shells, layered with sand and gravel in a plastic bottle.
            A: Does it actually work?
            B: It took the cloudiness out of pond water from the Fallowmere green. They tested it for bacteria too, with help from the hospital lab.
            A: My hospital lab? Small world.
            2B: The prize is a trip to the national final in Leeds, and three hundred pounds for the school's chemistry department.
            A: What will you spend the money on?
            B: Fume cupboard filters, sadly. Nothing glamorous. The kids wanted a slushie machine.
            A: I'd have voted for the slushie machine.
            """,
            [
                ("single-hop", 1, "What was Dmitri's students' science fair project?"),
                ("temporal", 1, "When did Dmitri's students win the regional science fair?"),
                ("single-hop", 2, "Where is the national final of the science fair?"),
            ],
        ),
        S(
            "Iris told Dmitri that Pepper hurt her paw on the beach at Wexley.",
            """
            A: Poor Pepper had an accident this week.
            B: Oh no! Is she alright?
            1A: She cut a pad on her front paw on a broken shell on Wexley beach. There was blood everywhere, greyhounds have such thin skin.
            B: That sounds awful. Did she need the vet?
            A: Three stitches and a cone. She walks into door frames with it, very undignified.
            2A: I've bought her a set of little rubber boots for the beach, so it doesn't happen again. She hates them.
            B: I need a picture of Pepper in boots. For science.
            A: You'll get one. She lifts each foot like she's stepping on hot coals.
            B: Mochi would never tolerate boots.
            A: Mochi would never tolerate anything.
            """,
            [
                ("single-hop", 1, "How did Pepper hurt her paw?"),
                ("single-hop", 2, "What did Iris buy for Pepper after the injury?"),
                ("temporal", 1, "When did Pepper cut her paw?"),
            ],
        ),
        S(
            "Dmitri told Iris about his plans to visit his grandmother in Georgia over the summer.",
            """
            B: I booked my flights for the summer!
            A: Where are you going?
            1B: Tbilisi, to see my grandmother Nino. She's ninety this year and I haven't been back in six years.
            A: Ninety! Is she well?
            B: Sharper than me. She still walks to the market every day and argues about the price of tomatoes.
            A: I like her already. How long will you stay?
            2B: Three weeks in July. My cousin Levan is driving us to the mountains for a few days, to the village where she grew up.
            A: That sounds like a trip you'll remember for a long time.
            B: I hope so. Who will look after Mochi, though? That's the real problem.
            A: Don't look at me, Pepper would try to befriend her and it would end in tears.
            """,
            [
                ("single-hop", 1, "Who is Dmitri visiting in Tbilisi?"),
                ("single-hop", 2, "Who is driving Dmitri to the mountains?"),
            ],
        ),
        S(
            "Iris shared that her brother Theo is engaged and asked her to give a speech at the wedding.",
            """
            A: Theo got engaged!
            B: Your brother Theo? The one who never answers his phone?
            A: The same. He answered it long enough to propose to Amara, apparently.
            B: That's lovely. When's the wedding?
            1A: Late summer, at a vineyard outside Saltcombe. Amara's family knows the owners.
            B: A vineyard wedding. Very fancy.
            2A: He asked me to be his best woman and give the speech, since our dad would just talk about boats for twenty minutes.
            B: You'll be great at it. Tell the story about him and the lighthouse.
            A: That story is the first thing I wrote down.
            B: And Pepper? Is she invited?
            A: Amara insists. I have a feeling there are plans for Pepper.
            """,
            [
                ("single-hop", 1, "Where is Theo's wedding going to be?"),
                ("single-hop", 2, "What role did Theo ask Iris to play at his wedding?"),
            ],
        ),
        S(
            "Dmitri came back from Tbilisi and told Iris about his grandmother's cooking lessons.",
            """
            B: I'm back! Still full from three weeks of Georgian food.
            A: Welcome home! How was Nino?
            B: Incredible. She organised the whole family like a general.
            1B: She taught me to make khachapuri from scratch, the boat-shaped one with the egg in the middle. I've made it twice since.
            A: You have to make it for me.
            B: Next time you come up to Fallowmere. I also brought you a present.
            2B: Churchkhela, the walnut sweets on a string that look like candles. They hang in every market there.
            A: They sound amazing. How did Mochi cope without you?
            B: My neighbour fed her and she sulked the whole three weeks. She's only just started sitting on me again.
            A: Cats hold grudges like nobody else.
            """,
            [
                ("single-hop", 1, "What dish did Dmitri's grandmother teach him to make?"),
                ("temporal", 1, "When did Dmitri get back from Tbilisi?"),
                ("single-hop", 2, "What present did Dmitri bring Iris from Georgia?"),
            ],
        ),
        S(
            "Iris told Dmitri the Marigold's mast was up and she had chosen the sails.",
            """
            A: The mast is up on the Marigold! It's starting to look like a real boat.
            B: That's a milestone! How did you get a mast up?
            A: A crane at Wexley harbour, and four men shouting at each other. Dad supervised from a deckchair.
            1A: I chose the sails too. Tan-coloured, like the old working boats had, not white.
            B: Why tan?
            A: They used to soak them in tree bark to stop them rotting. Now it's just to look pretty, I admit it.
            2A: The sailmaker in Cobb's Landing says they'll be ready in six weeks, and then we can try her on the water.
            B: I want to be there for the first sail.
            A: You can be ballast. We need someone heavy in the middle.
            B: Charming.
            """,
            [
                ("single-hop", 1, "What colour sails did Iris choose for the Marigold?"),
                ("temporal", 1, "When did the Marigold get her mast put up?"),
            ],
        ),
        S(
            "Dmitri won a prize at the Fallowmere harvest fair with a giant pumpkin.",
            """
            B: The badger has been avenged.
            A: What do you mean?
            1B: My pumpkin came second at the Fallowmere harvest fair. Forty-one kilos!
            A: Forty-one kilos of pumpkin? How did you even move it?
            B: Wheelbarrow, two students and a lot of swearing in Russian.
            A: Who beat you?
            2B: Mrs Okafor from the plot by the gate. Hers was fifty-three kilos. She feeds hers with seaweed and milk, apparently.
            A: Milk? Is that real?
            B: She swears by it. Next year I'm trying it. This is war now.
            A: The quietest chemistry teacher in Fallowmere, at war over pumpkins.
            """,
            [
                ("single-hop", 1, "How heavy was Dmitri's prize pumpkin?"),
                ("single-hop", 2, "Who beat Dmitri at the harvest fair?"),
                ("temporal", 1, "When did Dmitri win a prize at the harvest fair?"),
            ],
        ),
        S(
            "Iris told Dmitri about Theo's wedding at the vineyard and her speech.",
            """
            A: The wedding was perfect. I'm still recovering.
            B: Tell me everything! How did the speech go?
            A: People laughed in the right places and Amara's grandmother cried in the right places. I'll take it.
            B: And the lighthouse story?
            A: Theo went bright red. Worth it.
            1A: And Pepper was the ring bearer! She walked up the aisle with the rings tied to her collar in a little velvet pouch.
            B: That's the best thing I've ever heard. Did she do it properly?
            A: She stopped halfway to lie down. Theo had to go and collect the rings himself.
            2A: The vineyard owners gave everyone a bottle of their rosé to take home, so I'll bring you one.
            B: Deal. I'll open it with the khachapuri.
            """,
            [
                ("single-hop", 1, "What job did Pepper have at Theo's wedding?"),
                ("temporal", 1, "When was Theo's wedding?"),
            ],
        ),
        S(
            "Dmitri told Iris that the quartet's viola player is leaving.",
            """
            B: Quartet news, and not good.
            A: Oh no. What's happened?
            1B: Hester is leaving. Her husband got a job in Edinburgh and they're moving in January.
            A: She played that opening tune so beautifully. Can you replace her?
            B: We have to, a quartet with three people is a trio with a gap.
            2B: We're holding auditions in the church hall in December. So far one person has applied, and he's fifteen.
            A: A fifteen-year-old violist! Is he any good?
            B: He might be better than all of us. That's the worry.
            A: Embrace it. You can all be his mentors.
            B: Or his page-turners.
            """,
            [
                ("single-hop", 1, "Why is Hester leaving Dmitri's quartet?"),
                ("single-hop", 2, "Where will the quartet hold its auditions?"),
            ],
        ),
        S(
            "Iris described the Marigold's first sail and the engine trouble that ended it.",
            """
            A: The Marigold sailed! And then she didn't.
            B: That sounds like a story.
            A: The first hour was perfect. Tan sails, a bit of wind, Dad at the tiller grinning like a boy.
            B: And then?
            1A: The wind died, we started the old engine to get home, and it coughed twice and stopped. We were drifting off Wexley point.
            B: Were you scared?
            2A: A bit! A fishing boat called the Dora Mae saw us waving and towed us back into the harbour. The skipper refused any money.
            A: Dad is going to rebuild the engine over winter. He's thrilled, frankly. Another project.
            B: Of course he is.
            A: I'm sending the Dora Mae's skipper a cake.
            """,
            [
                ("single-hop", 1, "What went wrong on the Marigold's first sail?"),
                ("single-hop", 2, "Which boat towed the Marigold back to the harbour?"),
                ("temporal", 1, "When did the Marigold first go sailing?"),
            ],
        ),
        S(
            "Dmitri told Iris that Mochi went missing for two days.",
            """
            B: I've had the worst weekend. Mochi disappeared.
            A: Oh Dmitri. Did you find her?
            B: Yes, but not until Monday. I put posters on every lamp post in Fallowmere.
            1B: She was locked in my neighbour's garden shed. He'd gone away for the weekend and she must have slipped in when he got his bike out.
            A: Poor thing! Was she hurt?
            B: Thin and furious. She ate two dinners and slept for fourteen hours.
            2B: I've ordered her a microchip cat flap so at least she can't get into the wrong houses through mine.
            A: Pepper would have found her in ten minutes, you know. Greyhounds can't resist a cat.
            B: That's exactly why Pepper was not invited to the search.
            """,
            [
                ("single-hop", 1, "Where was Mochi found after she went missing?"),
                ("temporal", 1, "When did Mochi go missing?"),
            ],
        ),
        S(
            "Iris told Dmitri she had an interview for a job as an air ambulance nurse.",
            """
            A: I've done something bold. I applied for a new job.
            B: Leaving the ward? What job?
            1A: A flight nurse on the air ambulance. They fly out of an airfield near Norbridge and cover the whole coast.
            B: In a helicopter? Iris!
            A: I know. The trauma course is what made me think I could do it.
            B: When is the interview?
            2A: Next Tuesday. There's a fitness test too: I have to carry a kit bag up a ladder and pass a swimming test in a flight suit.
            A: I've been swimming at the Wexley pool every morning before my shifts.
            B: You're going to get it. I can feel it.
            A: Don't jinx it! But thank you.
            """,
            [
                ("single-hop", 1, "What job did Iris apply for?"),
                ("single-hop", 2, "What tests are part of the air ambulance interview?"),
            ],
        ),
        S(
            "Dmitri introduced the quartet's new viola player, and Iris said she got the air ambulance job.",
            """
            B: We have a new violist!
            A: The fifteen-year-old?
            1B: No, in the end it was Rafael, a retired orchestra player who just moved to Fallowmere. The teenager came second and cried, poor boy.
            A: Aw. Will you keep him in touch?
            B: Rafael is going to teach him for free. Everyone wins.
            2B: Our first concert with Rafael is the Christmas concert at St Anne's, and we're playing Haydn's Sunrise quartet.
            A: I'll be there. And I have news too.
            3A: I got the air ambulance job! I start in February.
            B: Iris! I knew it! We have to celebrate.
            A: With the vineyard rosé. I've been saving it.
            """,
            [
                ("single-hop", 1, "Who became the quartet's new viola player?"),
                ("single-hop", 2, "What will the quartet play at the Christmas concert?"),
                ("temporal", 3, "When did Iris find out she got the air ambulance job?"),
            ],
        ),
    ],
    "multi": [
        ("What prizes have Dmitri's students and Dmitri's garden won?", (6, 12)),
        (
            "What went wrong with the Marigold, first in the workshop and then on the water?",
            (3, 15),
        ),
        ("What trouble has Mochi caused or got into?", (4, 16)),
        ("Who has played the viola in Dmitri's quartet, and who replaced them?", (14, 18)),
        ("What has Pepper done at the beach and at Theo's wedding?", (7, 13)),
    ],
    "none": [
        "What did Iris name her second dog?",
        "When did Dmitri run the Fallowmere half marathon?",
        "What did Theo study at university?",
    ],
}

HANA_COLM: dict[str, Any] = {
    "people": ("Hana", "Colm"),
    "greetings": [
        [
            "A: Colm! Are you around? I've had a day.",
            "B: I'm here, covered in sawdust. Tell me everything.",
        ],
        ["B: Hiya Hana, how's the taco empire?", "A: Sticky, loud and profitable. How are you?"],
        [
            "A: Evening! I'm finally sitting down for the first time since six this morning.",
            "B: Put your feet up. I'll do the talking for a bit.",
        ],
        [
            "B: Hey, it's been a while! What's new in Port Avery?",
            "A: Hey Colm! Loads. Have you got time?",
        ],
        [
            "A: Hi! Is Captain yelling in the background or is that you?",
            "B: That's Captain. He says hello. Well, he says 'biscuit', but he means hello.",
        ],
    ],
    "goodbyes": [
        [
            "A: I need to prep tomorrow's marinade. Night, Colm!",
            "B: Night! Don't burn the truck down.",
        ],
        [
            "B: Captain wants his dinner, and he won't stop shouting until he gets it. Talk later?",
            "A: Go feed the tyrant. Talk later!",
        ],
        [
            "A: My legs are telling me to go to bed. Chat soon?",
            "B: Definitely. Take care of yourself.",
        ],
        [
            "B: I'd better get some sleep, early start at the lake. Bye Hana!",
            "A: Bye! Send me pictures of the cabin.",
        ],
    ],
    "plain": [
        "{A} and {B} had a conversation at {when}.",
        "{B} and {A} caught up at {when}.",
        "At {when}, {A} and {B} had a chat.",
    ],
    "chat": [
        [
            "B: How's business on the truck this week?",
            "A: Steady. Rainy days are slow, but the office workers in Port Avery still come out for lunch.",
        ],
        [
            "A: How's Captain?",
            "B: Loud. He learned to imitate my phone ringing, so now I never know if someone's calling.",
            "A: That's evil genius.",
        ],
        [
            "B: Did you run this morning?",
            "A: Eight kilometres along the seafront. It was grey and cold and I loved it.",
        ],
        [
            "A: How's the cabin coming on?",
            "B: Slowly. Every weekend at Loon Lake I do half of what I planned and spend the rest looking at the water.",
        ],
        [
            "B: Are your parents still helping with the truck?",
            "A: Mum does the pickles on Sundays. Dad gives advice nobody asked for. It balances out.",
        ],
        [
            "A: Still doing the Japanese homework?",
            "B: Every evening. Captain sits on my shoulder and tries to eat the flashcards.",
        ],
        [
            "B: Is the seafront busy yet?",
            "A: Busier every week. Port Avery in the summer is a different town.",
        ],
        [
            "A: Do you ever sleep at the lake now?",
            "B: In the van, some nights. The mosquitoes at Loon Lake are the size of small birds.",
        ],
        [
            "B: What's the special this week on Little Ember?",
            "A: Still thinking about it. I change it every time I get bored, which is often.",
        ],
        [
            "A: Has Captain said anything new?",
            "B: He says 'oh no' every time I drop something. He learned that one from me, sadly.",
        ],
        [
            "B: How are your legs holding up?",
            "A: Tired but okay. I stretch in the truck between lunch and dinner service. The customers think it's very funny.",
        ],
        [
            "A: Are you still working on the kitchen job in town?",
            "B: Finishing it this week. Oak worktops, very nice, very heavy.",
        ],
        [
            "B: Do you get any days off at all?",
            "A: Mondays. I spend them doing the accounts, so not really.",
        ],
        [
            "A: How's the van?",
            "B: Held together with hope. It's done the road to Loon Lake so many times it probably drives itself.",
        ],
        [
            "B: Have you eaten anything that isn't tacos this week?",
            "A: I had a banana. Does that count?",
            "B: It does not.",
        ],
        [
            "A: Is the lake still freezing?",
            "B: Colder than you'd believe. I jumped in once and made a noise I didn't know I could make.",
        ],
        [
            "B: What's the weather like down there?",
            "A: Windy. The awning on the truck nearly took off yesterday with me holding it.",
        ],
        [
            "A: Do you miss working on houses now that you've got the cabin?",
            "B: Not really. The cabin is mine. Nobody changes their mind about the tiles halfway through.",
        ],
        [
            "A: Did you finish that table for your neighbour?",
            "B: Finished and delivered. She cried, which I think was good crying.",
            "A: That's the best kind of review.",
        ],
        [
            "B: How's your mum's pickle production?",
            "A: Industrial. She made forty jars last weekend and lined them up on the windowsill like soldiers.",
        ],
        [
            "A: Does Captain still wake you up at dawn?",
            "B: Five fifteen, every day, with the chainsaw noise or a doorbell. I haven't used an alarm in months.",
        ],
        [
            "B: What time did you finish last night?",
            "A: Midnight, after cleaning the grill. My hair smells of charcoal for days. Customers say it's part of the experience.",
        ],
        [
            "A: Have you seen any wildlife at the lake lately?",
            "B: A beaver! Or a very fat otter. It was dark. I'm going with beaver.",
        ],
        [
            "B: Are you still doing those early runs before the market?",
            "A: Some mornings. The seafront at six is just me, the gulls and a man who walks his tortoise.",
        ],
        [
            "A: How's the Japanese coming along?",
            "B: I can order noodles and ask where the toilet is. Mrs Tanaka says those are the two most important sentences.",
        ],
        [
            "B: Have you had any strange customers at the truck?",
            "A: A man ordered twelve tacos with no filling. Just tortillas. I didn't ask.",
        ],
        [
            "A: Is the road to Loon Lake still full of potholes?",
            "B: Worse. I've started naming them. The big one near the turning is called Gerald.",
        ],
        [
            "B: Are you managing to see friends at all with the truck?",
            "A: Only if they come to the truck. So I see a lot of friends, for about ninety seconds each.",
        ],
        [
            "A: What's Captain's favourite food these days?",
            "B: Grapes, but only the green ones. He throws the red ones at me.",
            "A: He has standards.",
        ],
        [
            "B: Did your dad ever fix that noise in the truck's exhaust?",
            "A: He says he did. The noise says he didn't. I've learned to drive with the radio on.",
        ],
        [
            "A: How many weekends have you spent at the cabin this year?",
            "B: Every single one. My friends in town think I've joined a cult.",
        ],
        [
            "B: Are you still making the tofu tacos, or has everyone gone for the meat?",
            "A: The tofu ones are secretly my bestseller. Don't tell the pork.",
        ],
        [
            "A: Do you get lonely out at the lake?",
            "B: Not really. There's always something to fix and a loon or two to talk to. And Captain, when he comes.",
        ],
    ],
    "sessions": [
        S(
            "Hana told Colm she had bought a food truck and named it Little Ember.",
            """
            A: I did it. I bought the truck.
            B: The one you've been looking at for months? Hana, congratulations!
            A: It used to be an ice cream van. It still plays half a tune when I start the engine.
            B: What are you calling it?
            A: Little Ember. Because everything is cooked over charcoal, and because my grandmother called me that.
            1A: The menu is Korean barbecue tacos: bulgogi beef, spicy pork, and a tofu one for the vegetarians.
            B: I'll be your first customer. Where will you park it?
            2A: I've got a pitch at the Port Avery farmers' market on Saturdays, and I'm asking the council about the seafront.
            B: This is the start of something big.
            A: Or the start of a lot of debt. We'll see.
            """,
            [
                ("single-hop", 1, "What food does Little Ember sell?"),
                ("temporal", 1, "When did Hana buy her food truck?"),
                ("single-hop", 2, "Where does Hana have a pitch on Saturdays?"),
            ],
        ),
        S(
            "Colm told Hana about the land he bought at Loon Lake and clearing it.",
            """
            B: I've got my own news. I bought the plot at Loon Lake.
            A: You did? The one with the little beach?
            B: That one. It's tiny and full of trees, but it's mine.
            1B: First job is clearing the birch trees where the cabin will go. I hired a chainsaw for the weekend.
            A: Please be careful. Do you even know how to use a chainsaw?
            B: I'm a carpenter, Hana. I know which end is sharp.
            2B: The funny part is Captain. He heard the chainsaw through the window for two days and now he does a perfect impression of it.
            A: A parrot that sounds like a chainsaw. Your neighbours must love you.
            B: They think I'm doing midnight woodwork.
            A: Good luck sleeping ever again.
            """,
            [
                ("single-hop", 1, "What did Colm have to clear before building the cabin?"),
                ("single-hop", 2, "What sound did Captain learn to imitate?"),
                ("temporal", 1, "When did Colm buy the plot at Loon Lake?"),
            ],
        ),
        S(
            "Hana described Little Ember's first day at the farmers' market.",
            """
            A: First day at the market! It was a rollercoaster.
            B: Did people come?
            1A: We sold out of the spicy pork tacos by noon. There was a queue for an hour.
            B: That's amazing, Hana!
            A: It was, until the afternoon.
            2A: The generator died at two o'clock. No power for the fridge, no lights, nothing. I had to close early and give away the rest of the kimchi.
            B: Oh no. Can you fix it?
            A: My uncle says it's the fuel pump. He's lending me his old one until I can buy a new generator.
            B: Still, selling out on day one is a dream.
            A: It is. I cried a little in the van afterwards. Happy tears, mostly.
            """,
            [
                ("single-hop", 1, "What sold out first on Little Ember's first market day?"),
                ("single-hop", 2, "What broke on Hana's food truck on its first day?"),
                ("temporal", 1, "When was Little Ember's first day at the market?"),
            ],
        ),
        S(
            "Colm said he had started Japanese evening classes to prepare for a trip to Kyoto.",
            """
            B: I've gone back to school.
            A: You? What are you studying?
            1B: Japanese. Wednesday nights at the community college. The teacher is Mrs Tanaka and she is terrifying and wonderful.
            A: Why Japanese?
            2B: I want to go to Kyoto and see the old temple carpenters at work. They build whole halls without a single nail, only joints.
            A: That's so you. A holiday to look at joints.
            B: Wood joints, Hana.
            A: I know. Can I come? I want to eat everything in Kyoto.
            B: Only if you learn to say please and thank you.
            A: I already know arigatou. I'm basically fluent.
            """,
            [
                ("single-hop", 1, "Who teaches Colm's Japanese class?"),
                ("single-hop", 2, "Why does Colm want to visit Kyoto?"),
            ],
        ),
        S(
            "Hana signed up for the Port Avery marathon and joined a running club.",
            """
            A: I've signed up for the Port Avery marathon. In October.
            B: A full marathon? While running a food truck?
            A: I know it sounds mad. I need something that's just for me.
            1A: I joined a running club, the Harbour Harriers. They meet on Tuesday and Thursday evenings by the lifeboat station.
            B: Are they friendly?
            A: Very. They're mostly retired teachers who run faster than me.
            2A: The plan is sixteen weeks, building up to a thirty-two kilometre long run at the end of September.
            B: I'll come and cheer. I'll bring Captain.
            A: Please don't teach him to shout 'faster'.
            B: No promises.
            """,
            [
                ("single-hop", 1, "Which running club did Hana join?"),
                ("temporal", 1, "When did Hana sign up for the marathon?"),
                ("single-hop", 2, "How long is the longest run in Hana's training plan?"),
            ],
        ),
        S(
            "Colm finished the cabin's foundation and found timber for the frame.",
            """
            B: The foundation is done at Loon Lake. Concrete piers, all level.
            A: That sounds like a real milestone.
            B: It is. Nothing is more boring than a foundation, and nothing matters more.
            1B: And I found my timber. An old barn in Ferris Hollow was being knocked down and the farmer sold me the beams.
            A: Old wood for a new cabin. I love that.
            B: Some of the beams are a hundred and fifty years old. They still have the adze marks from whoever cut them.
            2B: It took six trips with the van to bring it all over. The suspension will never be the same.
            A: Is the van okay?
            B: It makes a new noise now. I've decided it's a feature.
            A: You and Captain, collecting noises.
            """,
            [
                ("single-hop", 1, "Where did the timber for Colm's cabin come from?"),
                ("single-hop", 2, "How many van trips did Colm need to move the barn beams?"),
            ],
        ),
        S(
            "Hana passed a food safety inspection and hired help for the truck.",
            """
            A: The inspector came to Little Ember this week.
            B: Surprise visit? How did it go?
            1A: Five stars! The top rating. She said my fridge log was the tidiest she'd seen all year.
            B: All those evenings with the clipboard paid off.
            A: I'm framing the certificate and hanging it by the window.
            2A: And I've hired someone at last: my cousin Min-jun. He's nineteen and can fold a taco faster than me.
            B: Is it strange being your cousin's boss?
            A: Very. He calls me 'chef' with a straight face and I can't tell if he's joking.
            B: Take it as a compliment.
            A: I'm taking everything as a compliment this week.
            """,
            [
                ("single-hop", 1, "What rating did Little Ember get from the food inspector?"),
                ("single-hop", 2, "Who did Hana hire to help on the truck?"),
                ("temporal", 2, "When did Hana hire her cousin?"),
            ],
        ),
        S(
            "Colm told Hana that Captain escaped and how he got him back.",
            """
            B: Captain escaped on Saturday.
            A: No! How?
            B: I left the van door open at the lake for one minute. One minute!
            1B: He flew straight across the water and sat on the roof of the boathouse on the far side of Loon Lake, shouting 'biscuit' at the ducks.
            A: How did you get him back?
            2B: I rowed over with his food bowl and rattled it. He flew down onto my head like nothing had happened.
            A: He was probably waiting for you the whole time.
            B: He was definitely laughing at me.
            A: You need a harness for him.
            B: I ordered one. He has already bitten it.
            """,
            [
                ("single-hop", 1, "Where did Captain fly to when he escaped?"),
                ("single-hop", 2, "How did Colm get Captain back?"),
                ("temporal", 1, "When did Captain escape?"),
            ],
        ),
        S(
            "Hana told Colm about a knee injury during her marathon training.",
            """
            A: Bad week for running. My knee has been sore since the long run.
            B: Did you see someone?
            1A: A physio near the harbour. She says it's runner's knee and I have to cut my mileage in half for two weeks.
            B: Half! That must be hard to hear.
            A: It was. I sulked in the truck for a whole lunch service.
            2A: I'm swimming instead, at the lido, to keep my fitness up. And doing these boring exercises with a rubber band.
            B: Will you still be ready for October?
            A: The physio thinks so, if I'm sensible. I'm not known for being sensible.
            B: Be sensible this once. For me and Captain.
            A: Fine. For Captain.
            """,
            [
                ("single-hop", 1, "What did the physio tell Hana to do about her knee?"),
                ("single-hop", 2, "What exercise did Hana do instead of running?"),
                ("temporal", 1, "When did Hana hurt her knee?"),
            ],
        ),
        S(
            "Colm put the roof on the cabin and lost a tarp in a storm.",
            """
            B: The cabin has a roof!
            A: Finally! What's it made of?
            1B: Cedar shingles. I split a lot of them myself, which took forever, but they smell amazing when it rains.
            A: So it's done? No more rain inside?
            2B: Nearly. There was a storm on Tuesday night and it ripped the tarp off the half I hadn't finished. The loft got soaked.
            A: Oh no. Is the wood ruined?
            B: It'll dry. The old barn beams have survived worse than a storm.
            A: You're very calm about it.
            B: I shouted at the sky for a while first, then I was calm.
            A: Very healthy.
            """,
            [
                ("single-hop", 1, "What did Colm use to cover the cabin roof?"),
                ("single-hop", 2, "What did the storm damage at the cabin?"),
            ],
        ),
        S(
            "Hana ran the Port Avery marathon and Colm came to cheer.",
            """
            A: I'm a marathon runner! I can't walk down stairs, but I'm a marathon runner.
            B: You were incredible! I saw you at the twenty-mile point and you were smiling.
            A: That was a grimace, Colm.
            B: Same thing from a distance.
            1A: I finished in four hours and twelve minutes. My goal was under four and a half, so I'm over the moon.
            B: And your knee?
            A: It held! The physio's boring rubber band saved me.
            2A: And thank you for the sign. 'Run Hana, the tacos are getting cold' made the whole crowd laugh.
            B: Captain was very excited. He shouted 'oh no' at every runner who went past.
            A: That's not very encouraging!
            """,
            [
                ("single-hop", 1, "What was Hana's finishing time in the marathon?"),
                ("temporal", 1, "When did Hana run the Port Avery marathon?"),
                ("single-hop", 2, "What did Colm's sign at the marathon say?"),
            ],
        ),
        S(
            "Colm passed his first Japanese exam and got a present from his teacher.",
            """
            B: I passed my Japanese exam!
            A: Well done! Was it hard?
            B: The listening part was. Everyone on the recording spoke like they were late for a train.
            1B: Mrs Tanaka gave me a present after the class: an old book of Japanese joinery diagrams that belonged to her father. He was a carpenter in Nara.
            A: Colm, that's so kind.
            B: I nearly cried. The drawings are beautiful.
            2B: I'm going to build one of the joints from the book into the cabin. The one they call the rabbit ear.
            A: Will it hold?
            B: It's held temples up for a thousand years. I think it can hold up my porch.
            A: Fair point.
            """,
            [
                ("single-hop", 1, "What did Mrs Tanaka give Colm?"),
                ("temporal", 1, "When did Colm pass his Japanese exam?"),
                (
                    "single-hop",
                    2,
                    "Which joint from the book does Colm want to build into the cabin?",
                ),
            ],
        ),
        S(
            "Hana's truck won an award for best street food in Port Avery.",
            """
            A: Guess who won best street food at the Port Avery food awards?
            B: No way. Little Ember?
            A: Little Ember! Against twelve other trucks.
            1A: The judges loved the new dish. Kimchi grilled cheese with a bit of bulgogi inside. Min-jun came up with it, actually.
            B: Give that boy a raise.
            A: I did. And a trophy shaped like a golden fork.
            2A: The local paper is doing a story on us next week, and a café in the old town asked if they could sell my kimchi.
            B: Hana, you're becoming famous.
            A: Famous in Port Avery. Which is about three streets.
            B: Three very hungry streets.
            """,
            [
                ("single-hop", 1, "Which dish impressed the judges at the food awards?"),
                ("temporal", 1, "When did Little Ember win best street food?"),
                ("single-hop", 2, "Who asked to sell Hana's kimchi?"),
            ],
        ),
        S(
            "Colm spent his first night in the finished cabin at Loon Lake.",
            """
            B: I slept in the cabin last night. First night ever.
            A: How was it?
            1B: Perfect. I put the wood stove in on Friday, so it was warm, and the whole place smelled of cedar and smoke.
            A: That sounds like a dream. Was it quiet?
            2B: Not quite. In the middle of the night I heard loons calling on the lake. It's the strangest sound, like someone laughing and crying at once.
            A: That's why it's called Loon Lake, I suppose.
            B: I suppose so. I never actually heard one before.
            A: Did Captain join in?
            B: He stayed at my sister's. He'd have tried to talk to them all night.
            A: Next time bring him. He'd make new friends.
            """,
            [
                ("single-hop", 1, "What did Colm install in the cabin before his first night?"),
                ("single-hop", 2, "What did Colm hear during his first night in the cabin?"),
                ("temporal", 1, "When did Colm first sleep in the cabin?"),
            ],
        ),
        S(
            "Hana and Colm planned their trip to Kyoto together.",
            """
            A: Okay, let's actually plan Kyoto. I've been saving.
            B: Yes! I've got a list of temples as long as my arm.
            A: And I have a list of food as long as both my arms.
            1A: I want a whole day at Nishiki market. Grilled eel, tamagoyaki, pickles, the little octopus with a quail egg in its head.
            B: That last one sounds frightening.
            A: It's a delicacy!
            2B: I've booked us flights for the first week of April, for the cherry blossoms. Mrs Tanaka says it's busy but worth it.
            A: April! That's so soon.
            B: Who will look after Little Ember?
            A: Min-jun. I'm scared and proud at the same time.
            """,
            [
                ("single-hop", 1, "Where does Hana want to spend a whole day in Kyoto?"),
                ("single-hop", 2, "When is the trip to Kyoto booked for?"),
            ],
        ),
        S(
            "Hana told Colm she is going to open a small restaurant.",
            """
            A: I have big news. Maybe the biggest.
            B: Go on.
            A: I'm going to open a restaurant. A small one, twenty seats.
            1A: I signed the lease today on the old ferry terminal café on the harbour. It's been empty for two years.
            B: The one with the round windows? I love that building.
            A: It needs everything. New kitchen, new floor, new everything.
            2A: Which is why I wanted to ask you: would you build the counter and the tables? From the leftover barn beams, if there are any?
            B: Hana, I'd be honoured. There's plenty left.
            A: Little Ember will keep running too. Min-jun will run the truck.
            B: This is the best news. Captain will want a table by the window.
            """,
            [
                ("single-hop", 1, "Where will Hana's restaurant be?"),
                ("temporal", 1, "When did Hana sign the lease for her restaurant?"),
                ("single-hop", 2, "What did Hana ask Colm to build for the restaurant?"),
            ],
        ),
    ],
    "multi": [
        (
            "What went wrong with Hana's marathon training, and how did the race go in the end?",
            (9, 11),
        ),
        (
            "Where did the materials for Colm's cabin come from, and what did he use for the roof?",
            (6, 10),
        ),
        ("What has Mrs Tanaka done for Colm?", (4, 12)),
        ("What has Min-jun done for Little Ember?", (7, 13)),
        ("Which noises has Captain picked up, and where did he fly off to?", (2, 8)),
    ],
    "none": [
        "What did Hana name her restaurant's signature cocktail?",
        "How much did Colm pay for his new van?",
        "When did Colm's sister visit the cabin for the first time?",
    ],
}

DIALOGUE: dict[str, Any] = {"dirs": [IRIS_DMITRI, HANA_COLM]}
