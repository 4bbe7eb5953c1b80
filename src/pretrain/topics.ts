// What the synthetic assistant knows: a few dozen everyday tasks, each with a one-sentence
// summary (the terse answer), an intro, three or four steps and a tip (the elaborate answer).
// The text is deliberately plain and formal (no contractions, no exclamation marks, no emoji,
// no markdown): the style renderer adds those, so every style dimension is controlled in one
// place and the style detectors can tell the styles apart.

/** A topic category, for balanced sampling and for reports. */
export type TopicCategory = 'cooking' | 'travel' | 'programming' | 'study' | 'everyday';

/** One task the assistant can explain. */
export interface Topic {
  id: string;
  category: TopicCategory;
  /** Verb phrase that completes "How do I …?". */
  task: string;
  /** The whole answer in one sentence of at most 18 words. */
  summary: string;
  /** One sentence that opens an elaborate answer. */
  intro: string;
  /** Steps as [imperative key phrase, one explaining sentence]. */
  steps: Array<[string, string]>;
  /** One closing sentence. */
  tip: string;
}

/** The topics of the corpus. */
export const TOPICS: readonly Topic[] = [
  {
    id: 'pasta',
    category: 'cooking',
    task: 'cook pasta',
    summary: 'Boil salted water, cook the pasta for about ten minutes, then drain it.',
    intro: 'Cooking pasta well takes only a few simple steps.',
    steps: [
      ['Boil plenty of water', 'Use a large pot and add a good pinch of salt.'],
      ['Add the pasta', 'Stir it once so the pieces do not stick together.'],
      ['Taste it early', 'Start checking a minute or two before the time on the package.'],
      ['Drain and serve', 'Mix it with the sauce while it is still hot.'],
    ],
    tip: 'Keep a cup of the cooking water to loosen the sauce.',
  },
  {
    id: 'rice',
    category: 'cooking',
    task: 'cook rice',
    summary: 'Rinse the rice, simmer it covered in twice its volume of water, then let it rest.',
    intro: 'Fluffy rice depends mostly on the amount of water and on patience.',
    steps: [
      ['Rinse the rice', 'Wash it in cold water until the water runs clear.'],
      ['Measure the water', 'Use about two cups of water for each cup of rice.'],
      ['Simmer it covered', 'Keep the heat low and do not lift the lid for fifteen minutes.'],
      ['Let it rest', 'Leave it covered for five minutes before you stir it.'],
    ],
    tip: 'A pinch of salt in the water gives the rice more flavor.',
  },
  {
    id: 'eggs',
    category: 'cooking',
    task: 'make scrambled eggs',
    summary: 'Whisk the eggs, cook them slowly over low heat, and stir until they are just set.',
    intro: 'Soft scrambled eggs need low heat and a little attention.',
    steps: [
      ['Whisk the eggs', 'Beat them with a pinch of salt until the color is even.'],
      ['Warm the pan', 'Melt some butter over low heat.'],
      ['Stir slowly', 'Move the eggs gently from the edges to the center.'],
      ['Stop early', 'Take the pan off the heat while the eggs still look a little wet.'],
    ],
    tip: 'The eggs keep cooking on the plate, so serve them right away.',
  },
  {
    id: 'bread',
    category: 'cooking',
    task: 'bake simple bread',
    summary: 'Mix flour, water, yeast and salt, let the dough rise, then bake it until golden.',
    intro: 'A basic loaf needs only four ingredients and some time.',
    steps: [
      ['Mix the dough', 'Combine flour, warm water, yeast and salt in a bowl.'],
      ['Knead it', 'Work the dough for about ten minutes until it feels smooth.'],
      ['Let it rise', 'Cover it and wait until it doubles in size.'],
      ['Bake it', 'Bake the loaf in a hot oven for about thirty minutes.'],
    ],
    tip: 'The bread is done when the bottom sounds hollow when you tap it.',
  },
  {
    id: 'soup',
    category: 'cooking',
    task: 'make vegetable soup',
    summary: 'Soften onions, add chopped vegetables and stock, then simmer until everything is tender.',
    intro: 'Vegetable soup is a forgiving dish that uses whatever you have.',
    steps: [
      ['Soften the onions', 'Cook them in a little oil until they turn soft.'],
      ['Add the vegetables', 'Chop them into pieces of a similar size.'],
      ['Pour in the stock', 'Cover the vegetables with stock or water.'],
      ['Simmer it', 'Cook it gently for about twenty minutes.'],
    ],
    tip: 'Season the soup at the end, when the flavors have come together.',
  },
  {
    id: 'salad',
    category: 'cooking',
    task: 'make a good salad',
    summary: 'Combine fresh greens with a crunchy element and dress them just before serving.',
    intro: 'A good salad balances fresh, crunchy and tangy flavors.',
    steps: [
      ['Dry the greens', 'Wet leaves make the dressing slide off.'],
      ['Add some crunch', 'Nuts, seeds or croutons give the salad texture.'],
      ['Make a dressing', 'Mix three parts oil with one part vinegar and some salt.'],
      ['Dress it late', 'Add the dressing right before you serve it.'],
    ],
    tip: 'A little honey or mustard helps the dressing hold together.',
  },
  {
    id: 'coffee',
    category: 'cooking',
    task: 'brew good coffee',
    summary: 'Use freshly ground beans, hot but not boiling water, and the right ratio.',
    intro: 'Better coffee comes from a few small habits.',
    steps: [
      ['Grind fresh beans', 'Grind them just before you brew.'],
      ['Measure the ratio', 'Use about one gram of coffee for every sixteen grams of water.'],
      ['Mind the temperature', 'Let boiling water rest for half a minute before you pour.'],
      ['Clean the equipment', 'Old oils in the machine make the coffee bitter.'],
    ],
    tip: 'Store the beans in an airtight container away from light.',
  },
  {
    id: 'packing',
    category: 'travel',
    task: 'pack light for a trip',
    summary: 'Pick clothes that match each other, limit shoes, and pack only what you will use.',
    intro: 'Packing light is mostly about planning before you open the suitcase.',
    steps: [
      ['Make a list', 'Write down what you need for each day.'],
      ['Choose matching clothes', 'Pick a few pieces that all go together.'],
      ['Limit the shoes', 'Two pairs are enough for most trips.'],
      ['Use small containers', 'Put toiletries in travel-size bottles.'],
    ],
    tip: 'Wear your heaviest clothes on the plane to save space.',
  },
  {
    id: 'jetlag',
    category: 'travel',
    task: 'deal with jet lag',
    summary: 'Shift your sleep before the trip, get daylight on arrival, and avoid long naps.',
    intro: 'Jet lag fades faster when you help your body clock adjust.',
    steps: [
      ['Shift your schedule early', 'Move your bedtime an hour a day before you leave.'],
      ['Drink enough water', 'Flights dry you out and make tiredness worse.'],
      ['Get morning light', 'Spend time outside during the first days.'],
      ['Keep naps short', 'Limit them to about twenty minutes.'],
    ],
    tip: 'Eat meals at the local times as soon as you arrive.',
  },
  {
    id: 'flights',
    category: 'travel',
    task: 'find cheap flights',
    summary: 'Be flexible with dates, compare several sites, and book a few weeks ahead.',
    intro: 'Cheap flights are easier to find when you stay flexible.',
    steps: [
      ['Stay flexible', 'Check prices for a range of dates.'],
      ['Compare sites', 'Look at a few search engines and the airline site.'],
      ['Book ahead', 'Prices are often lowest several weeks before departure.'],
      ['Set alerts', 'Let a price alert tell you when the fare drops.'],
    ],
    tip: 'Nearby airports can be much cheaper than the main one.',
  },
  {
    id: 'language',
    category: 'travel',
    task: 'learn basic phrases before a trip',
    summary: 'Learn greetings, numbers and polite phrases first, and practice them out loud every day.',
    intro: 'A handful of phrases makes a trip much easier.',
    steps: [
      ['Start with greetings', 'Hello, please and thank you go a long way.'],
      ['Learn the numbers', 'They help with prices, times and addresses.'],
      ['Practice out loud', 'Say the phrases while you listen to a recording.'],
      ['Carry a note', 'Keep the key phrases on your phone.'],
    ],
    tip: 'Locals usually appreciate any effort to speak their language.',
  },
  {
    id: 'safety',
    category: 'travel',
    task: 'keep my things safe while traveling',
    summary: 'Keep valuables close, split your money, and keep copies of your documents.',
    intro: 'A few habits keep your belongings safe on the road.',
    steps: [
      ['Split your money', 'Keep cards and cash in different places.'],
      ['Use a front pocket', 'Thieves target back pockets and open bags.'],
      ['Copy your documents', 'Store photos of your passport online.'],
      ['Lock your bag', 'A small lock stops casual theft.'],
    ],
    tip: 'Stay alert in crowded places such as stations and markets.',
  },
  {
    id: 'python',
    category: 'programming',
    task: 'start learning Python',
    summary: 'Install Python, follow a beginner tutorial, and write small programs every day.',
    intro: 'Python is a friendly first language if you practice regularly.',
    steps: [
      ['Install Python', 'Download it from the official site and check the version.'],
      ['Follow a tutorial', 'Pick one beginner course and finish it.'],
      ['Write small programs', 'Build tiny tools such as a calculator or a to-do list.'],
      ['Read error messages', 'They usually tell you exactly what went wrong.'],
    ],
    tip: 'Practicing a little every day beats one long session a week.',
  },
  {
    id: 'git',
    category: 'programming',
    task: 'use git',
    summary: 'Create a repository, commit small changes often, and push them to a remote.',
    intro: 'Git keeps a history of your work so you can always go back.',
    steps: [
      ['Create a repository', 'Run git init in your project folder.'],
      ['Stage your changes', 'Use git add to choose what goes into the next commit.'],
      ['Commit often', 'Write a short message that says why you made the change.'],
      ['Push to a remote', 'Send your commits to a server so they are backed up.'],
    ],
    tip: 'Use a new branch for each feature to keep the main branch stable.',
  },
  {
    id: 'debug',
    category: 'programming',
    task: 'debug my code',
    summary: 'Reproduce the bug, read the error, and narrow it down with prints or a debugger.',
    intro: 'Debugging is a calm search for the one wrong assumption.',
    steps: [
      ['Reproduce the bug', 'Find the smallest input that shows the problem.'],
      ['Read the error', 'The message and the line number are the best clues.'],
      ['Narrow it down', 'Print values or use a debugger to see where they change.'],
      ['Fix and test', 'Add a test so the bug cannot come back.'],
    ],
    tip: 'Explaining the problem out loud often reveals the answer.',
  },
  {
    id: 'functions',
    category: 'programming',
    task: 'write good functions',
    summary: 'Keep each function small, give it a clear name, and make it do one thing.',
    intro: 'Good functions are small, focused and easy to name.',
    steps: [
      ['Do one thing', 'A function should have a single clear job.'],
      ['Name it well', 'The name should say what the function returns or does.'],
      ['Keep it short', 'Split long functions into smaller helpers.'],
      ['Avoid hidden effects', 'Pass data in and return results instead of changing globals.'],
    ],
    tip: 'If a function is hard to test, it is probably doing too much.',
  },
  {
    id: 'sql',
    category: 'programming',
    task: 'learn SQL',
    summary: 'Start with SELECT queries on a sample database, then learn joins and grouping.',
    intro: 'SQL is easiest to learn by asking questions of real data.',
    steps: [
      ['Get a sample database', 'Many tutorials ship a small one you can download.'],
      ['Learn SELECT first', 'Filter rows with WHERE and sort them with ORDER BY.'],
      ['Practice joins', 'Combine tables that share a key.'],
      ['Group and count', 'Use GROUP BY to summarize data.'],
    ],
    tip: 'Write each query in small pieces and check the result as you go.',
  },
  {
    id: 'variables',
    category: 'programming',
    task: 'name variables well',
    summary: 'Use short, descriptive names that say what the value means, not how it is stored.',
    intro: 'Clear variable names make code easier to read than comments do.',
    steps: [
      ['Describe the meaning', 'Prefer a name such as total price over a letter.'],
      ['Be consistent', 'Use the same word for the same idea everywhere.'],
      ['Avoid vague words', 'Names such as data or temp say very little.'],
      ['Match the scope', 'Short names are fine inside a tiny loop.'],
    ],
    tip: 'If you cannot find a good name, the code may need restructuring.',
  },
  {
    id: 'exams',
    category: 'study',
    task: 'prepare for an exam',
    summary: 'Start early, test yourself often, and spread your review over several days.',
    intro: 'Good exam preparation is spread out rather than crammed.',
    steps: [
      ['Start early', 'Begin reviewing at least a week before the exam.'],
      ['Test yourself', 'Practice questions show what you do not know yet.'],
      ['Space your review', 'Short sessions on many days work better than one long night.'],
      ['Sleep well', 'Your memory settles what you learned while you sleep.'],
    ],
    tip: 'Old exams are the best practice material you can find.',
  },
  {
    id: 'focus',
    category: 'study',
    task: 'stay focused while studying',
    summary: 'Remove distractions, work in short timed blocks, and take regular breaks.',
    intro: 'Focus is easier to protect than to force.',
    steps: [
      ['Remove distractions', 'Put your phone in another room.'],
      ['Use timed blocks', 'Work for twenty-five minutes, then rest for five.'],
      ['Set one goal', 'Decide what you want to finish in each block.'],
      ['Take real breaks', 'Stand up, stretch and look away from the screen.'],
    ],
    tip: 'Studying at the same place and time builds a helpful habit.',
  },
  {
    id: 'notes',
    category: 'study',
    task: 'take better notes',
    summary: 'Write key ideas in your own words and review your notes within a day.',
    intro: 'Notes help most when they make you think, not just copy.',
    steps: [
      ['Use your own words', 'Rephrasing forces you to understand the idea.'],
      ['Keep it short', 'Write key points rather than full sentences.'],
      ['Add questions', 'Note what is still unclear so you can check it later.'],
      ['Review quickly', 'Read your notes again within twenty-four hours.'],
    ],
    tip: 'A short summary at the end of each page helps you review later.',
  },
  {
    id: 'memorize',
    category: 'study',
    task: 'memorize vocabulary',
    summary: 'Use flashcards with spaced repetition and practice the words in sentences.',
    intro: 'New words stick when you meet them again at the right time.',
    steps: [
      ['Use flashcards', 'Put the word on one side and its meaning on the other.'],
      ['Space the reviews', 'Review a card again just before you would forget it.'],
      ['Use the words', 'Write a sentence with each new word.'],
      ['Review daily', 'Ten minutes a day works better than an hour once a week.'],
    ],
    tip: 'Learning words in context makes them easier to recall.',
  },
  {
    id: 'essay',
    category: 'study',
    task: 'write an essay',
    summary: 'Plan a clear thesis, outline your points, write a draft, then revise it.',
    intro: 'A good essay is planned before it is written.',
    steps: [
      ['State your thesis', 'Write your main claim in one sentence.'],
      ['Outline the points', 'List the arguments that support the claim.'],
      ['Write a draft', 'Do not worry about perfect wording yet.'],
      ['Revise it', 'Cut what does not support the thesis.'],
    ],
    tip: 'Reading the essay out loud helps you catch awkward sentences.',
  },
  {
    id: 'sleep',
    category: 'everyday',
    task: 'sleep better',
    summary: 'Keep a regular schedule, avoid screens before bed, and keep your room dark.',
    intro: 'Better sleep usually comes from a steady routine.',
    steps: [
      ['Keep a schedule', 'Go to bed and wake up at the same time every day.'],
      ['Dim the screens', 'Put devices away an hour before bed.'],
      ['Cool the room', 'A dark, quiet and cool room helps you fall asleep.'],
      ['Limit caffeine', 'Avoid coffee in the afternoon and evening.'],
    ],
    tip: 'If you cannot sleep, get up for a while and read something calm.',
  },
  {
    id: 'running',
    category: 'everyday',
    task: 'start running',
    summary: 'Begin with short runs mixed with walking and add a little distance each week.',
    intro: 'Running gets easier when you build up slowly.',
    steps: [
      ['Start slowly', 'Alternate one minute of running with two minutes of walking.'],
      ['Run three times a week', 'Rest days let your body adapt.'],
      ['Add distance gradually', 'Increase your weekly total by about ten percent.'],
      ['Get proper shoes', 'Good shoes reduce the risk of injury.'],
    ],
    tip: 'Run at a pace where you can still hold a conversation.',
  },
  {
    id: 'budget',
    category: 'everyday',
    task: 'make a monthly budget',
    summary: 'List your income and expenses, set limits for each category, and track your spending.',
    intro: 'A budget simply tells your money where to go.',
    steps: [
      ['List your income', 'Write down what you earn each month after tax.'],
      ['Track expenses', 'Record what you spend for a few weeks.'],
      ['Set limits', 'Give each category such as food or rent a fixed amount.'],
      ['Save first', 'Move some money to savings as soon as you are paid.'],
    ],
    tip: 'Review the budget each month and adjust it to real life.',
  },
  {
    id: 'plants',
    category: 'everyday',
    task: 'keep houseplants alive',
    summary: 'Give them enough light, water only when the soil is dry, and use pots that drain.',
    intro: 'Most houseplants die from too much care rather than too little.',
    steps: [
      ['Check the light', 'Place each plant where it gets the light it needs.'],
      ['Water carefully', 'Wait until the top of the soil feels dry.'],
      ['Use drainage', 'Pots need holes so the roots do not rot.'],
      ['Feed them lightly', 'Add fertilizer once a month in spring and summer.'],
    ],
    tip: 'Yellow leaves often mean the plant gets too much water.',
  },
  {
    id: 'cleaning',
    category: 'everyday',
    task: 'keep my home tidy',
    summary: 'Put things back right away, do a short daily reset, and give everything a place.',
    intro: 'A tidy home comes from small daily habits.',
    steps: [
      ['Give things a place', 'Everything should have a spot where it belongs.'],
      ['Put things back', 'Return items as soon as you finish with them.'],
      ['Do a daily reset', 'Spend ten minutes tidying every evening.'],
      ['Declutter regularly', 'Remove things you no longer use.'],
    ],
    tip: 'A basket by the door catches keys, mail and small items.',
  },
  {
    id: 'interview',
    category: 'everyday',
    task: 'prepare for a job interview',
    summary: 'Research the company, practice common questions, and prepare a few questions of your own.',
    intro: 'Confidence in an interview comes from preparation.',
    steps: [
      ['Research the company', 'Learn what they do and what they value.'],
      ['Practice answers', 'Rehearse common questions out loud.'],
      ['Prepare examples', 'Have short stories that show your skills.'],
      ['Ask questions', 'Prepare two or three questions for the interviewer.'],
    ],
    tip: 'Arrive a few minutes early and bring a copy of your resume.',
  },
  {
    id: 'water',
    category: 'everyday',
    task: 'drink more water',
    summary: 'Carry a bottle, drink a glass with every meal, and set simple reminders.',
    intro: 'Drinking more water is easier with a few cues.',
    steps: [
      ['Carry a bottle', 'Keep it on your desk and in your bag.'],
      ['Link it to meals', 'Drink a glass of water with every meal.'],
      ['Set reminders', 'A phone reminder helps until it becomes a habit.'],
      ['Add some flavor', 'A slice of lemon makes water more interesting.'],
    ],
    tip: 'Pale yellow urine is a simple sign that you drink enough.',
  },
  {
    id: 'email',
    category: 'everyday',
    task: 'write a polite email',
    summary: 'Use a clear subject, greet the reader, state your request briefly, and thank them.',
    intro: 'A polite email is short, clear and friendly.',
    steps: [
      ['Write a clear subject', 'The subject should say what the email is about.'],
      ['Greet the reader', 'Use their name and a simple greeting.'],
      ['State the request', 'Say what you need in the first few lines.'],
      ['Close politely', 'Thank them and sign with your name.'],
    ],
    tip: 'Read the email once more before you send it.',
  },
];

/** Question templates; `{task}` is replaced by the topic's task. */
export const QUESTION_TEMPLATES: readonly string[] = [
  'How do I {task}?',
  'What is the best way to {task}?',
  'Can you tell me how to {task}?',
  'Any tips on how to {task}?',
  'I want to {task}. Where do I start?',
  'Explain how to {task}, please.',
  'What should I know to {task}?',
  'how to {task}?',
  'What are the steps to {task}?',
  'Tell me how to {task}.',
  'Could you explain how to {task}?',
  'I would like to {task}. Any advice?',
  'Quick question: how do you {task}?',
  'What is a good way to {task}?',
  'Teach me to {task}.',
  'help me {task} please',
];

/** Templates kept out of the corpus, so held-out prompts have phrasings the model never saw. */
export const HELD_OUT_TEMPLATES: readonly string[] = ['Could you walk me through how to {task}?', 'I need help. How can I {task}?'];

/** Fills a question template with a topic's task. */
export function question(template: string, topic: Topic): string {
  return template.replace('{task}', topic.task);
}
