"""English and 简体中文 text of the Reasoning page."""

STRINGS = {
    "reasoning.intro": (
        "Chain-of-thought prompting (Wei et al., 2201.11903) showed that a large language model solves multi-step "
        "problems better when it writes the intermediate steps before the answer. DeepSeekMath (2402.03300) introduced "
        "GRPO (Group Relative Policy Optimization), a variant of PPO without a value network: it samples a group of "
        "answers to each question and uses the group's mean reward as the baseline. DeepSeek-R1 (2501.12948) trained "
        "with GRPO on rewards checked by rules and watched long reasoning emerge in a very large model. Here all three "
        "run on small character-level models trained on this site, on a task whose difficulty is simply the number of "
        "steps.",
        "思维链提示（Wei 等，2201.11903）表明：大型语言模型先写出中间步骤再给答案，解多步问题会更好。DeepSeekMath（"
        "2402.03300）提出了 GRPO（组相对策略优化），这是一种不需要价值网络的 PPO 变体：它对每个问题采样一组回答，用这"
        "组回答的平均奖励作为基线。DeepSeek-R1（2501.12948）用 GRPO 配合由规则检查的奖励进行训练，在一个超大模型中看到"
        "了长推理的涌现。这里三者都在本站训练的小型字符级模型上运行，任务的难度就是步骤的数量。",
    ),
    "reasoning.try.do": (
        "In section 1 set **Operations** to {k} and press **Another problem** a few times.",
        "在第 1 节把**运算个数**设为 {k}，然后按几次**换一道题**。",
    ),
    "reasoning.try.see": (
        "`direct` writes its digit at once; `cot` writes {k} running values and then the answer, and the chips "
        "under it show which steps are right. On the held-out problems with k = {k}, the card measured `direct` right "
        "{direct} of the time and `cot` {cot} (the metrics under the accuracy curve); a blind guess is right {chance}.",
        "`direct` 直接写出一个数字；`cot` 先写出 {k} 个中间值再给答案，下方的小块标出哪些步骤是对的。在 k = {k} 的"
        "留出题目上，模型卡测得 `direct` 的正确率为 {direct}，`cot` 为 {cot}（见准确率曲线下方的指标）；盲猜的正确率"
        "为 {chance}。",
    ),
    "reasoning.try.see_missing": (
        "Once the `cot` card is installed, its accuracy against the number of operations appears here.",
        "安装 `cot` 的模型卡后，这里会显示它的准确率随运算个数的变化。",
    ),
    "reasoning.try.why": (
        "Each single step is a lookup the network learns easily. Answering directly asks for {k} of them inside one "
        "forward pass; writing each value down lets the next step read it back, one step per token.",
        "每一步单独看只是一次很容易学会的查表。直接回答要求在一次前向计算里完成 {k} 次查表；把每个中间值写下来，"
        "下一步就能把它读回来，每个词元只做一步。",
    ),
    # the problem
    "reasoning.cot.title": ("1 · Chain of thought, live", "1 · 思维链，现场演示"),
    "reasoning.cot.caption": (
        "A problem is a start digit and 1 to {max} operations applied left to right, keeping only the last digit: "
        "`3+4*3-5` means 3 → 7 → 1 → 6. Adding and subtracting take 1–9, multiplying takes 3, 7 or 9; every "
        "operation shuffles the ten digits, so a blind guess is right one time in ten at any length. `direct` was "
        "trained to write the answer alone (`=6.`), `cot` to copy the start and write the value after each "
        "operation, then the answer (`3,7,1,6=6.`): the same network, the same problems, the same training "
        "steps. Type a problem, pick an "
        "example, or draw one of the held-out problems that neither model saw in training.",
        "一道题由一个起始数字和 1 到 {max} 个运算组成，从左到右依次计算，只保留个位数：`3+4*3-5` 表示 3 → 7 → 1 → 6。"
        "加减的数为 1–9，乘数只能是 3、7 或 9；每个运算都把十个数字打乱重排，所以无论多长，盲猜的正确率都是十分之一。"
        "`direct` 训练时只写答案（`=6.`），`cot` 先抄下起始数字，再写出每个运算后的值，最后写答案（`3,7,1,6=6.`）："
        "网络相同、题目相同、训练"
        "步数相同。可以自己输入题目、选一个示例，或者抽一道两个模型训练时都没见过的留出题。",
    ),
    "reasoning.problem": ("Problem", "题目"),
    "reasoning.problem.help": (
        "A start digit, then up to {max} operations such as +4, -5, *3 (× and − work too; spaces are ignored).",
        "一个起始数字，后接最多 {max} 个运算，如 +4、-5、*3（也可以用 × 和 −；空格会被忽略）。",
    ),
    "reasoning.examples": (
        "Examples: held-out problems of 2, 4, 6 and 8 operations",
        "示例：2、4、6、8 个运算的留出题",
    ),
    "reasoning.k": ("Operations (difficulty)", "运算个数（难度）"),
    "reasoning.k.help": (
        "Draws a held-out problem with this many operations: one of the {n} per length that the cards' accuracies "
        "were measured on. Single operations are all trained (there are only {single} of them), so k = 1 draws "
        "from those.",
        "抽一道有这么多运算的留出题：它来自每种长度 {n} 道、用于测量模型卡准确率的题目。单个运算总共只有 {single} 种，"
        "全部参与了训练，所以 k = 1 时从这些题目中抽取。",
    ),
    "reasoning.index": ("Problem number", "题号"),
    "reasoning.index.help": (
        "Which of the {n} held-out problems of this length.",
        "这个长度的 {n} 道留出题中的第几道。",
    ),
    "reasoning.another": ("Another problem", "换一道题"),
    "reasoning.problem_is": (
        "What both models read: `{prompt}` ({k} operations; `_` fills the unused operation slots, so every prompt "
        "has the same length and the i-th operation always sits at the same position); they write the rest.",
        "两个模型读到的是：`{prompt}`（{k} 个运算；`_` 填满没用到的运算位置，使每个提示长度相同、第 i 个运算总在同一"
        "位置）；之后的内容由它们写出。",
    ),
    "reasoning.m.truth": ("True answer", "正确答案"),
    "reasoning.m.truth.help": (
        "Computed by the task's rule, not by a model.",
        "由任务规则算出，不是模型给出的。",
    ),
    "reasoning.m.direct": ("direct answers", "direct 的答案"),
    "reasoning.m.cot": ("cot answers", "cot 的答案"),
    "reasoning.m.answer.help": (
        "The digit after = in its greedy completion `{completion}`.",
        "贪心解码补全 `{completion}` 中 = 之后的数字。",
    ),
    "reasoning.m.steps": ("cot's steps right", "cot 写对的步骤"),
    "reasoning.m.steps.help": (
        "Written running values that equal the true value after that operation.",
        "写出的中间值中，与该运算后真实值相等的个数。",
    ),
    "reasoning.right": ("right", "正确"),
    "reasoning.wrong": ("wrong", "错误"),
    "reasoning.malformed": ("malformed", "格式错误"),
    "reasoning.direct": ("direct", "direct"),
    "reasoning.cot": ("cot", "cot"),
    "reasoning.strip": (
        "Each written token, coloured by its probability (light = low, dark = high)",
        "每个写出的词元，按其概率着色（浅 = 低，深 = 高）",
    ),
    "reasoning.direct.note": (
        "The digit after = is the whole answer: every operation has to happen inside the forward pass that writes it.",
        "= 之后的数字就是全部答案：所有运算都必须在写出它的那一次前向计算里完成。",
    ),
    "reasoning.cot.note": (
        "Each chip is one operation and the value `cot` wrote after it: green where it is the true value, red where "
        "it is not (hover for the true one).",
        "每个小块是一个运算以及 `cot` 在它之后写的值：绿色表示与真实值相同，红色表示不同（悬停可看真实值）。",
    ),
    "reasoning.strip.note": (
        "Hover a token for its probability (the lowest here is {low}). A low probability marks the step the model "
        "was unsure about; a confident token can still be wrong.",
        "把鼠标悬停在词元上可看其概率（这里最低为 {low}）。概率低标出了模型拿不准的那一步；概率高的词元也可能是错的。",
    ),
    "reasoning.curve.title": ("Accuracy against the number of operations", "准确率随运算个数的变化"),
    "reasoning.m.direct_at_bar": ("direct at k = {k}", "direct，k = {k}"),
    "reasoning.m.cot_at_bar": ("cot at k = {k}", "cot，k = {k}"),
    "reasoning.m.card.help": (
        "Exact match on held-out problems, greedy decoding, from the cot card (both models on the same problems).",
        "留出题上的完全匹配率，贪心解码，取自 cot 的模型卡（两个模型用同样的题目）。",
    ),
    "reasoning.m.gain": ("cot − direct", "cot − direct"),
    "reasoning.m.gain.help": (
        "The cot card's bar asks for a gain of at least {bar} at this length.",
        "cot 模型卡的门槛要求在这个长度上至少提高 {bar}。",
    ),
    "reasoning.curve.bar": ("bar, k = {k}", "门槛，k = {k}"),
    "reasoning.curve.chance": ("chance (1 in 10)", "盲猜（十分之一）"),
    "reasoning.k_axis": ("operations k", "运算个数 k"),
    "reasoning.exact_match": ("held-out exact match", "留出集完全匹配率"),
    "reasoning.curve.note": (
        "Measured on {n} held-out problems per k (at k = 1, where every problem is trained, on those). Most training "
        "problems have 1 to {easy} operations, so k = {k}, where the bar is held, lies past the bulk of training. The "
        "shaded band is the current problem's k.",
        "每个 k 在 {n} 道留出题上测量（k = 1 时所有题目都参与了训练，就在这些题上测量）。训练题大多有 1 到 {easy} 个"
        "运算，所以门槛所在的 k = {k} 超出了训练数据的主体。阴影带标出当前题目的 k。",
    ),
    # GRPO
    "reasoning.grpo.title": ("2 · GRPO, live", "2 · GRPO，现场演示"),
    "reasoning.grpo.caption": (
        "GRPO (DeepSeekMath §4.1) samples a group of G outputs o₁ … o_G for each question from the current policy, "
        "scores each one, and gives every token of output i the same advantage Â_i = (r_i − mean r) / std r. The "
        "update then makes the tokens of outputs that beat the group's mean more likely and the others less, through "
        "PPO's clipped ratio, with a KL penalty that keeps the policy near a reference model. Below, the problem "
        "above is sampled as in training (temperature {T}; G = {G} during training) and scored by the rule. "
        "Before RL is `grpo-start`: `cot` fine-tuned on {examples:,} formatted examples, {share:.0%} of them "
        "answered directly, so it can work the steps but mostly writes the answer alone; after RL is `grpo`.",
        "GRPO（DeepSeekMath §4.1）对每个问题从当前策略采样一组 G 个输出 o₁ … o_G，逐个打分，并给输出 i 的每个词元"
        "同样的优势 Â_i = (r_i − mean r) / std r。随后的更新通过 PPO 的截断比率，让高于组平均的输出中的词元更可能"
        "出现，其余的更不可能出现，同时用 KL 惩罚让策略不偏离参考模型太远。下面按训练时的方式（温度 {T}；训练时 "
        "G = {G}）对上面的题目采样，并用规则打分。RL 之前是 `grpo-start`：在 {examples:,} 个格式正确的示例上微调过的 "
        "`cot`，其中 {share:.0%} 直接给出答案，所以它会逐步计算，却多半只写答案；RL 之后是 `grpo`。",
    ),
    "reasoning.policy": ("Policy", "策略"),
    "reasoning.policy.start": ("before RL (grpo-start)", "RL 之前（grpo-start）"),
    "reasoning.policy.grpo": ("after RL (grpo)", "RL 之后（grpo）"),
    "reasoning.group": ("Group size G", "组大小 G"),
    "reasoning.seed": ("Sampling seed", "采样种子"),
    "reasoning.seed.help": ("Another seed samples another group.", "换一个种子就采样出另一组。"),
    "reasoning.grpo.no_problem": (
        "Fix the problem above to sample a group for it.",
        "先改正上面的题目，才能为它采样一组输出。",
    ),
    "reasoning.m.mean_reward": ("Group mean reward", "组平均奖励"),
    "reasoning.m.mean_reward.help": (
        "GRPO's baseline: each output's advantage is its reward minus this, over the group's standard deviation.",
        "GRPO 的基线：每个输出的优势 = 它的奖励减去这个值，再除以组内标准差。",
    ),
    "reasoning.m.correct": ("Right answers", "答对"),
    "reasoning.m.formed": ("Well formed", "格式正确"),
    "reasoning.m.std": ("Reward spread (std)", "奖励离散度（标准差）"),
    "reasoning.m.std.help": (
        "0 means every output scored alike: all advantages are 0 and the group teaches nothing.",
        "为 0 表示所有输出得分相同：所有优势都是 0，这一组学不到任何东西。",
    ),
    "reasoning.grpo.flat": (
        "Every output earned the same reward, so every advantage is 0 and this group would not move the policy. "
        "GRPO learns only from groups whose answers differ: try another seed or a harder problem.",
        "所有输出得到的奖励相同，因此优势全为 0，这一组不会改变策略。GRPO 只能从回答有差别的组中学习："
        "换一个种子或一道更难的题试试。",
    ),
    "reasoning.reward": ("reward", "奖励"),
    "reasoning.advantage": ("advantage Â", "优势 Â"),
    "reasoning.baseline": ("group mean (baseline)", "组平均（基线）"),
    "reasoning.col.output": ("output", "输出"),
    "reasoning.col.completion": ("completion", "补全"),
    "reasoning.col.answer": ("answer", "答案"),
    "reasoning.col.right": ("right", "正确"),
    "reasoning.col.reward": ("reward", "奖励"),
    "reasoning.col.advantage": ("Â", "Â"),
    "reasoning.col.length": ("|o|", "|o|"),
    "reasoning.col.weight": ("push per token Â/|o|/G", "每词元推力 Â/|o|/G"),
    "reasoning.push.title": ("Which tokens the update pushes up or down", "更新把哪些词元往上推、往下压"),
    "reasoning.push.note": (
        "Green tokens become more likely, red ones less likely, grey ones stay; the deeper the colour, the harder the "
        "push. The push on each token of output i is d J / d log π = Â_i / |o_i| / G at the first step (ratio 1, "
        "before clipping and the KL term; G = {G} here). Dividing by the length |o_i| means a short output's tokens "
        "are pushed harder than a long one's with the same advantage.",
        "绿色词元会变得更可能，红色的更不可能，灰色的不变；颜色越深，推力越大。输出 i 中每个词元受到的推力是第一步的 "
        "d J / d log π = Â_i / |o_i| / G（比率为 1，尚未截断，也不含 KL 项；这里 G = {G}）。因为要除以长度 |o_i|，"
        "优势相同时，短输出中的词元比长输出中的被推得更用力。",
    ),
    # training curves
    "reasoning.train.title": ("What GRPO training recorded", "GRPO 训练记录下的曲线"),
    "reasoning.m.start_em": ("Held-out before RL", "RL 前留出集"),
    "reasoning.m.grpo_em": ("Held-out after RL", "RL 后留出集"),
    "reasoning.m.em.help": (
        "Greedy exact match on held-out problems with 6 operations, one more than any of the start's examples "
        "(where the cot bar is held too), from the grpo card. The figure below has every k.",
        "在 6 个运算的留出题上的贪心完全匹配率（比起点模型的任何示例都多一步，cot 的门槛也在这里），"
        "取自 grpo 的模型卡。下图给出每个 k。",
    ),
    "reasoning.rl_curve.note": (
        "Before and after RL, greedy, on {n} held-out problems per k. The start's examples have 1 to "
        "{easy} operations; GRPO's questions have 1 to {k}. On the mix of 1 to {k} operations: {start:.1%} before, "
        "{grpo:.1%} after ({gain:+.1%}).",
        "RL 前后，贪心解码，每个 k 在 {n} 道留出题上测量。起点模型的示例有 1 到 {easy} 个运算；GRPO 的题目有 1 到 {k} "
        "个。在 1 到 {k} 个运算的混合题上：RL 前 {start:.1%}，RL 后 {grpo:.1%}（{gain:+.1%}）。",
    ),
    "reasoning.m.well_formed": ("Well formed after RL", "RL 后格式正确率"),
    "reasoning.m.writes_steps": ("Writes the steps, k = {k}", "写出步骤，k = {k}"),
    "reasoning.m.writes_steps.help": (
        "The share of greedy answers to held-out problems of {k} operations that work the steps before `=` rather "
        "than give the answer at once; {before} before RL.",
        "在 {k} 个运算的留出题上，贪心回答里先写出步骤再写 `=`、而不是直接给答案的比例；RL 之前为 {before}。",
    ),
    "reasoning.m.maj": ("maj@{K}, k = {k}", "maj@{K}，k = {k}"),
    "reasoning.m.maj.help": (
        "{K} answers sampled per held-out problem (temperature 1): right when the most frequent answer is; {before} "
        "before RL.",
        "每道留出题采样 {K} 个回答（温度 1）：出现最多的答案正确才算对；RL 之前为 {before}。",
    ),
    "reasoning.m.pass": ("pass@{K}, k = {k}", "pass@{K}，k = {k}"),
    "reasoning.m.pass.help": (
        "The same {K} samples: right when any of them is; {before} before RL.",
        "同样的 {K} 个样本：只要有一个正确就算对；RL 之前为 {before}。",
    ),
    "reasoning.sharpen.rerank": (
        "**Sharper, or more capable?** DeepSeekMath (§5.2.2, Figure 7) found that RL raised Maj@K but not Pass@K, "
        "and read it as RL making a right answer the model could already reach come out first. Ours at k = {k}: "
        "the greedy answer {g0} → {g1}, maj@{K} {m0} → {m1}, pass@{K} {p0} → {p1}. Most of the gain is in the first "
        "answer, not in what {K} tries reach: the start could already work the steps (it wrote them in {s0} of its "
        "greedy answers, {s1} after RL), and what RL taught it was to do so.",
        "**更敏锐，还是更有能力？** DeepSeekMath（§5.2.2，图 7）发现 RL 提高了 Maj@K，却没有提高 Pass@K，并解读为："
        "RL 让模型本来就能得到的正确答案排到了前面。我们在 k = {k} 上：贪心答案 {g0} → {g1}，maj@{K} {m0} → {m1}，"
        "pass@{K} {p0} → {p1}。增益主要在第一个答案上，而不在 {K} 次尝试能覆盖到的范围上：起点模型本来就会逐步"
        "计算（它在 {s0} 的贪心回答里写出了步骤，RL 之后是 {s1}），RL 教会它的是去这样做。",
    ),
    "reasoning.sharpen.reach": (
        "**Sharper, or more capable?** DeepSeekMath (§5.2.2, Figure 7) found that RL raised Maj@K but not Pass@K, "
        "and read it as RL making a right answer the model could already reach come out first. Ours at k = {k}: "
        "the greedy answer {g0} → {g1}, maj@{K} {m0} → {m1}, pass@{K} {p0} → {p1}. Here pass@{K} rose about as "
        "much as the first answer, so RL did more than re-rank what {K} tries of the start could reach (greedy "
        "answers writing the steps: {s0} before, {s1} after).",
        "**更敏锐，还是更有能力？** DeepSeekMath（§5.2.2，图 7）发现 RL 提高了 Maj@K，却没有提高 Pass@K，并解读为："
        "RL 让模型本来就能得到的正确答案排到了前面。我们在 k = {k} 上：贪心答案 {g0} → {g1}，maj@{K} {m0} → {m1}，"
        "pass@{K} {p0} → {p1}。这里 pass@{K} 的提高与第一个答案相当，所以 RL 做的不只是给起点模型 {K} 次尝试能"
        "覆盖到的答案重新排序（写出步骤的贪心回答：之前 {s0}，之后 {s1}）。",
    ),
    "reasoning.m.steps_trained": ("GRPO steps", "GRPO 步数"),
    "reasoning.m.steps_trained.help": (
        "{steps} steps × {questions} questions × G = {group} samples; {updates} optimiser updates per sampled batch; "
        "clip ε = {clip}, β = {beta}, learning rate {lr}.",
        "{steps} 步 × 每步 {questions} 道题 × G = {group} 个样本；每批样本做 {updates} 次优化器更新；"
        "截断 ε = {clip}，β = {beta}，学习率 {lr}。",
    ),
    "reasoning.curve.reward": ("mean reward", "平均奖励"),
    "reasoning.curve.accuracy": ("accuracy", "准确率"),
    "reasoning.curve.length": ("response length (tokens)", "回答长度（词元）"),
    "reasoning.curve.kl": ("KL to the start model", "与起点模型的 KL"),
    "reasoning.curve.train_accuracy": ("training groups", "训练组"),
    "reasoning.curve.held_out": ("held-out (greedy)", "留出集（贪心）"),
    "reasoning.curve.full_length": ("a fully worked answer", "完整写出步骤的答案"),
    "reasoning.step": ("GRPO step", "GRPO 步"),
    "reasoning.length.up": (
        "**What ours shows about length.** The mean sampled completion grew from {first} to {last} tokens over "
        "{steps} steps. A right answer that writes every step is 2k + 4 tokens long: the start, a comma and a "
        "value per operation, then =, the answer and a full stop (3,7,1,6=6. for k = 3): {full} on average over the "
        "training questions (k = 1 … {kmax}), the dotted line. Growth here can only mean writing out more of those "
        "steps; the task has no "
        "room for anything longer.",
        "**我们的模型在长度上表现如何。** 在 {steps} 步中，采样补全的平均长度从 {first} 个词元增长到 {last} 个。"
        "每一步都写出的正确答案长 2k + 4 个词元：起始数字，每个运算一个逗号和一个值，再加 =、"
        "答案数字和句号（k = 3 时为 3,7,1,6=6.）："
        "在训练题目（k = 1 … {kmax}）上平均为 {full}，即虚线。这里的增长只可能是把更多步骤写了出来；"
        "这个任务没有更长回答的空间。",
    ),
    "reasoning.length.down": (
        "**What ours shows about length.** The mean sampled completion shrank from {first} to {last} tokens over "
        "{steps} steps. A right answer that writes every step is 2k + 4 tokens long: the start, a comma and a "
        "value per operation, then =, the answer and a full stop (3,7,1,6=6. for k = 3): {full} on average over the "
        "training questions (k = 1 … {kmax}), the dotted line. Shorter here means fewer written steps or fewer "
        "runaway tails, not longer "
        "thinking.",
        "**我们的模型在长度上表现如何。** 在 {steps} 步中，采样补全的平均长度从 {first} 个词元缩短到 {last} 个。"
        "每一步都写出的正确答案长 2k + 4 个词元：起始数字，每个运算一个逗号和一个值，再加 =、"
        "答案数字和句号（k = 3 时为 3,7,1,6=6.）："
        "在训练题目（k = 1 … {kmax}）上平均为 {full}，即虚线。变短意味着写出的步骤更少或失控的尾巴更少，"
        "而不是想得更久。",
    ),
    "reasoning.length.flat": (
        "**What ours shows about length.** The mean sampled completion stayed about the same, {first} tokens at the "
        "first record and {last} at the last, over {steps} steps. A right answer that writes every step is 2k + 4 "
        "tokens long: the start, a comma and a value per operation, then =, the answer and a full stop (3,7,1,6=6. for "
        "k = 3): {full} on average over the training questions (k = 1 … {kmax}), the dotted line. RL here changed "
        "which values get written, not how much.",
        "**我们的模型在长度上表现如何。** 在 {steps} 步中，采样补全的平均长度基本不变：第一次记录为 {first} 个词元，最"
        "后一次为 {last} 个。每一步都写出的正确答案长 2k + 4 个词元：起始数字，每个运算一个逗号和一个值，再加 =、答案"
        "数字和句号（k = 3 时为 3,7,1,6=6.）：在训练题目（k = 1 … {kmax}）上平均为 {full}，即虚线。这里的 RL 改变的是"
        "写出哪些值，而不是写多少。",
    ),
    "reasoning.length.aha": (
        "DeepSeek-R1-Zero's responses grew steadily longer during RL, and the paper shows an intermediate checkpoint "
        "stopping to re-check its own work, its “aha moment”. That happened in a model built on DeepSeek-V3-Base "
        "(671B parameters) on open-ended problems with room to think. Ours has {params} parameters and a task whose "
        "complete solution has a fixed length, so that kind of emergence is not to be expected here, and none is "
        "claimed.",
        "DeepSeek-R1-Zero 的回答在 RL 过程中越来越长，论文还展示了一个中间检查点停下来重新检查自己推理的片段，即它的"
        "“顿悟时刻”（aha moment）。那发生在以 DeepSeek-V3-Base（6710 亿参数）为基础的模型上，面对的是有思考空间的"
        "开放问题。我们的模型只有 {params} 个参数，任务的完整解长度固定，所以这里不应期待那种涌现，也不声称看到了它。",
    ),
    # why no value network, verifiable rewards, R1
    "reasoning.why.title": (
        "3 · Why no value network, and what a verifiable reward is",
        "3 · 为什么不要价值网络，什么是可验证奖励",
    ),
    "reasoning.why.critic": (
        "**Why no value network.** PPO turns a reward into an advantage with a learned critic V that predicts, at "
        "every token, the reward still to come; the advantage is what came minus what was predicted. For a language "
        "model that critic is typically another model of about the policy's size (DeepSeekMath §4.1), trained "
        "alongside it, and when the reward arrives only at the last token it is hard to make accurate at every "
        "token. GRPO drops it: an output's baseline is the mean reward of the other answers to the same question, "
        "and every token of the output gets the same normalised advantage (outcome supervision). The price is "
        "sampling a group per question (DeepSeekMath sampled 64) instead of one answer. GRPO also moves the KL "
        "penalty from the reward into the loss, estimated per token as π_ref/π − log(π_ref/π) − 1, which is never "
        "negative.",
        "**为什么不要价值网络。** PPO 用一个学出来的评论家 V 把奖励变成优势：V 在每个词元处预测之后还能拿到多少奖励，"
        "优势就是实际得到的减去预测的。对语言模型来说，这个评论家通常是另一个和策略差不多大的模型（DeepSeekMath "
        "§4.1），要和策略一起训练；而当奖励只在最后一个词元给出时，很难让它在每个词元上都估得准。GRPO 把它去掉了："
        "一个输出的基线就是同一问题其他回答的平均奖励，输出中的每个词元都得到同样的归一化优势（结果监督）。代价是每个"
        "问题要采样一组回答（DeepSeekMath 采样 64 个），而不是一个。GRPO 还把 KL 惩罚从奖励挪到了损失里，并逐词元用 "
        "π_ref/π − log(π_ref/π) − 1 来估计，这个值永远不为负。",
    ),
    "reasoning.alignment_link": (
        "PPO with a value network and a learned reward model: the Alignment page",
        "带价值网络和学习型奖励模型的 PPO：对齐页面",
    ),
    "reasoning.verifiable.title": ("Verifiable rewards", "可验证奖励"),
    "reasoning.verifiable.body": (
        "A **verifiable reward** is computed by a rule that checks the answer against a known result (a number "
        "compared with the reference, a program run against tests) rather than scored by a learned reward model. "
        "DeepSeekMath's GRPO still used a reward model; DeepSeek-R1-Zero used rules only, an accuracy reward and a "
        "format reward (the reasoning between <think> and </think> tags). The R1 paper left neural reward models out "
        "because they can be reward-hacked in large-scale RL and retraining them costs more. A rule has no blind "
        "spot to exploit as long as it checks the right thing. Ours, `chains.judge`, gives 1 + {bonus} for a right "
        "answer in the right form, {bonus} for the form alone and 0 otherwise. It checks the answer only, not the "
        "steps, as R1's accuracy reward does; a lucky wrong chain with the right answer is paid in full.",
        "**可验证奖励**由一条规则把答案和已知结果对照算出（把数字和参考答案比较，把程序拿去跑测试），而不是由学出来"
        "的奖励模型打分。DeepSeekMath 的 GRPO 仍然用奖励模型；DeepSeek-R1-Zero 只用规则：准确性奖励和格式奖励（推理"
        "要写在 <think> 和 </think> 标签之间）。R1 论文不用神经网络奖励模型，因为在大规模 RL 中它可能被“奖励投机”"
        "（reward hacking）钻空子，而且重新训练它代价更高。只要规则检查的是对的东西，它就没有可钻的盲点。我们的规则 "
        "`chains.judge`：格式正确且答案正确得 1 + {bonus}，只有格式正确得 {bonus}，其余得 0。和 R1 的准确性奖励一样，"
        "它只检查答案、不检查步骤；步骤错了但碰巧答对，也照样拿满分。",
    ),
    "reasoning.r1.title": ("DeepSeek-R1's pipeline", "DeepSeek-R1 的训练流程"),
    "reasoning.r1.caption": (
        "How DeepSeek-R1 was trained, as the paper describes it: R1-Zero is RL straight from the base model; R1 "
        "itself goes through four stages, and its data then teaches smaller models.",
        "论文所描述的 DeepSeek-R1 训练方式：R1-Zero 直接在基座模型上做 RL；R1 本身经过四个阶段，之后它产生的数据"
        "再用来教更小的模型。",
    ),
    "reasoning.r1.base": ("DeepSeek-V3-Base", "DeepSeek-V3-Base"),
    "reasoning.r1.base.detail": ("pretrained, not fine-tuned", "预训练模型，未经微调"),
    "reasoning.r1.zero": ("DeepSeek-R1-Zero", "DeepSeek-R1-Zero"),
    "reasoning.r1.zero.detail": (
        "GRPO straight on the base model, rule rewards (accuracy, format), no SFT first. Reasons well but reads "
        "poorly and mixes languages.",
        "直接在基座模型上做 GRPO，规则奖励（准确性、格式），事先不做 SFT。推理能力强，但可读性差、语言混杂。",
    ),
    "reasoning.r1.cold": ("1 · Cold-start SFT", "1 · 冷启动 SFT"),
    "reasoning.r1.cold.detail": (
        "thousands of long, readable chain-of-thought examples",
        "数千条可读性好的长思维链示例",
    ),
    "reasoning.r1.rl1": ("2 · Reasoning-oriented RL", "2 · 面向推理的 RL"),
    "reasoning.r1.rl1.detail": (
        "GRPO with rule rewards as for R1-Zero, plus a language-consistency reward",
        "与 R1-Zero 相同的 GRPO 和规则奖励，另加语言一致性奖励",
    ),
    "reasoning.r1.reject": ("3 · Rejection sampling + SFT", "3 · 拒绝采样 + SFT"),
    "reasoning.r1.reject.detail": (
        "≈600k correct reasoning samples from stage 2 + ≈200k non-reasoning ones; V3-Base fine-tuned again on "
        "the ≈800k",
        "从阶段 2 采得约 60 万条正确的推理样本 + 约 20 万条非推理样本；在这约 80 万条上重新微调 V3-Base",
    ),
    "reasoning.r1.rl2": ("4 · RL for all scenarios", "4 · 面向全场景的 RL"),
    "reasoning.r1.rl2.detail": (
        "rule rewards for reasoning, reward models for helpfulness and harmlessness",
        "推理用规则奖励，有用性和无害性用奖励模型",
    ),
    "reasoning.r1.r1": ("DeepSeek-R1", "DeepSeek-R1"),
    "reasoning.r1.distill": ("Distillation", "蒸馏"),
    "reasoning.r1.distill.detail": (
        "Qwen2.5 and Llama models of 1.5B–70B fine-tuned on the ≈800k samples (SFT only, no RL)",
        "在约 80 万条样本上微调 1.5B–70B 的 Qwen2.5 和 Llama 模型（只做 SFT，不做 RL）",
    ),
    "reasoning.r1.note": (
        "The grey arrow: outputs of R1-Zero, made readable, were one of the sources of the cold-start data. Sample "
        "counts are from the paper's first version (January 2025, §2.3–2.4).",
        "灰色箭头：R1-Zero 的输出整理成可读格式后，是冷启动数据的来源之一。样本数量取自论文第一版（2025 年 1 月，"
        "§2.3–2.4）。",
    ),
    # paper vs here
    "reasoning.pvh.cot.what": ("chain of thought", "思维链"),
    "reasoning.pvh.cot.paper": (
        "prompted: a few worked exemplars in the prompt of a frozen model; gains only at about 100B parameters "
        "(2201.11903)",
        "提示：在冻结模型的提示中放几个带步骤的示例；只有在约 1000 亿参数的规模上才有收益（2201.11903）",
    ),
    "reasoning.pvh.cot.here": (
        "trained: `cot` learns the steps as its target (a scratchpad), `direct` the answer alone, same compute",
        "训练：`cot` 以步骤为训练目标（草稿纸），`direct` 只学答案，计算量相同",
    ),
    "reasoning.pvh.task.what": ("task", "任务"),
    "reasoning.pvh.task.paper": (
        "DeepSeekMath-RL: about 144K GSM8K- and MATH-style questions; R1: math, code, science and general tasks",
        "DeepSeekMath-RL：约 14.4 万道 GSM8K 和 MATH 类题目；R1：数学、代码、科学和通用任务",
    ),
    "reasoning.pvh.task.here": (
        "operation chains modulo 10; GRPO questions have 1 … {kmax} operations",
        "模 10 的运算链；GRPO 的题目有 1 … {kmax} 个运算",
    ),
    "reasoning.pvh.model.what": ("policy model", "策略模型"),
    "reasoning.pvh.model.paper": (
        "DeepSeekMath-Instruct 7B; R1: DeepSeek-V3-Base (671B, mixture of experts)",
        "DeepSeekMath-Instruct 7B；R1：DeepSeek-V3-Base（6710 亿参数，混合专家）",
    ),
    "reasoning.pvh.model.here": (
        "a character-level decoder of {params} parameters with the LLaMA block (RoPE, RMSNorm, SwiGLU)",
        "一个 {params} 参数的字符级解码器，采用 LLaMA 模块（RoPE、RMSNorm、SwiGLU）",
    ),
    "reasoning.pvh.reward.what": ("reward", "奖励"),
    "reasoning.pvh.reward.paper": (
        "DeepSeekMath: a learned reward model; R1: rules (accuracy + format)",
        "DeepSeekMath：学出来的奖励模型；R1：规则（准确性 + 格式）",
    ),
    "reasoning.pvh.reward.here": (
        "a rule: 1 + {bonus} right and well formed, {bonus} well formed, 0 otherwise",
        "规则：正确且格式正确得 1 + {bonus}，仅格式正确得 {bonus}，其余为 0",
    ),
    "reasoning.pvh.group.what": ("group size G", "组大小 G"),
    "reasoning.pvh.group.paper": ("64 outputs per question (DeepSeekMath §4.2)", "每题 64 个输出（DeepSeekMath §4.2）"),
    "reasoning.pvh.group.here": ("{group}", "{group}"),
    "reasoning.pvh.updates.what": ("updates per sampled batch", "每批样本的更新次数"),
    "reasoning.pvh.updates.paper": ("1 (a single update after each sampling)", "1（每次采样后只更新一次）"),
    "reasoning.pvh.updates.here": ("{updates}", "{updates}"),
    "reasoning.pvh.kl.what": ("KL coefficient β", "KL 系数 β"),
    "reasoning.pvh.kl.paper": ("0.04", "0.04"),
    "reasoning.pvh.kl.here": ("{beta} (clip ε = {clip})", "{beta}（截断 ε = {clip}）"),
    "reasoning.pvh.lr.what": ("policy learning rate", "策略学习率"),
    "reasoning.pvh.lr.paper": ("1e-6", "1e-6"),
    "reasoning.pvh.lr.here": ("{lr}", "{lr}"),
    "reasoning.pvh.departure.size": (
        "Our models have {params} parameters, not billions: what needs scale (prompting a frozen model into chains "
        "of thought, R1's long reasoning) cannot appear here.",
        "我们的模型只有 {params} 个参数，而不是几十亿：需要规模才会出现的东西（靠提示让冻结模型写出思维链、"
        "R1 的长推理）在这里不会出现。",
    ),
    "reasoning.pvh.departure.task": (
        "A toy task with a known answer to every problem, so the reward is exactly verifiable and difficulty is one "
        "number, k.",
        "一个每道题都有已知答案的玩具任务，因此奖励可以精确验证，难度就是一个数 k。",
    ),
    "reasoning.pvh.departure.cot": (
        "The CoT paper prompts a frozen model with worked examples; a small model cannot pick that up from a prompt, "
        "so `cot` is trained on worked solutions with the same compute as `direct`.",
        "CoT 论文用带步骤的示例提示一个冻结的模型；小模型无法从提示中学会这一点，所以 `cot` 是在带步骤的解答上训练的，"
        "计算量与 `direct` 相同。",
    ),
    "reasoning.pvh.departure.start": (
        "R1-Zero started RL from a base model and R1 from a cold start of long worked solutions. Ours starts from "
        "`cot` fine-tuned on {examples:,} examples, {share:.0%} of them answered directly, so it can work the steps "
        "but mostly does not: what RL has to find is the choice to write them. A start that wrote steps it did not "
        "know gained 3 points in 600 GRPO steps (docs/training/reasoning.md, run 17).",
        "R1-Zero 从基座模型开始 RL，R1 则从长推理解答组成的冷启动数据开始。我们的起点是在 {examples:,} 个示例上微调"
        "过的 `cot`，其中 {share:.0%} 直接给出答案，所以它会逐步计算却多半不这样做：RL 要找到的是“写出步骤”这个"
        "选择。一个会写步骤、却不会算这些步骤的起点，在 600 步 GRPO 中只提高了 3 个百分点（docs/training/reasoning.md，"
        "第 17 次训练）。",
    ),
    "reasoning.pvh.departure.reward": (
        "GRPO runs here with R1's kind of reward, a rule (1 + {bonus} / {bonus} / 0), not DeepSeekMath's learned "
        "reward model.",
        "这里的 GRPO 用的是 R1 那种奖励，即规则（1 + {bonus} / {bonus} / 0），而不是 DeepSeekMath 的学习型奖励模型。",
    ),
    "reasoning.pvh.departure.group": (
        "G = {group} outputs per question instead of 64, and {questions} questions per step, to train on two CPU "
        "cores.",
        "每题 G = {group} 个输出而不是 64 个，每步 {questions} 道题，这样才能在两个 CPU 核上训练。",
    ),
    "reasoning.pvh.departure.updates": (
        "{updates} optimiser steps on each sampled batch where DeepSeekMath made one, so from the second step on the "
        "ratio to the sampling policy and its clip ε = {clip} take effect.",
        "每批样本做 {updates} 次优化器更新，而 DeepSeekMath 只做一次；因此从第二次更新起，相对采样策略的比率及其截断 "
        "ε = {clip} 才开始起作用。",
    ),
    "reasoning.pvh.departure.length": (
        "A complete answer here is at most {longest} characters (2k + 4 at k = {max}, where the model's context "
        "ends), so response length cannot grow the way R1-Zero's did.",
        "这里一个完整答案最多 {longest} 个字符（k = {max} 时的 2k + 4，也是模型上下文的尽头），所以回答长度不可能像 "
        "R1-Zero 那样增长。",
    ),
    "reasoning.explain": (
        "**What the papers changed.** Chain of thought (2201.11903) gave a model room to compute: each written step "
        "is read back by the next, so a long problem becomes many short ones. GRPO (2402.03300) made RL on language "
        "models cheaper by replacing PPO's critic with the mean reward of a sampled group. DeepSeek-R1 (2501.12948) "
        "combined GRPO with rewards a rule can check and found that a very large model learns to reason at length "
        "from that signal alone, then packaged it in a multi-stage pipeline and distilled it into small models. "
        "**What you see here.** The cards measure both models on the same held-out problems; whether writing the "
        "steps helps at k = {k} is read from them, not assumed. A GRPO group shows where the learning signal comes "
        "from: only groups whose rewards differ push anything, and each output's tokens move together. **Try** a "
        "problem `direct` fails, then sample groups for it before RL (the outputs that work the steps are the ones "
        "pushed up) and after it.",
        "**这几篇论文改变了什么。** 思维链（2201.11903）给了模型计算的空间：每写下一步，下一步就能读回它，一道长题"
        "于是变成许多道短题。GRPO（2402.03300）用一组采样回答的平均奖励取代 PPO 的评论家，让语言模型上的 RL 变得"
        "更便宜。DeepSeek-R1（2501.12948）把 GRPO 和规则可检查的奖励结合起来，发现超大模型仅凭这个信号就能学会长篇"
        "推理，随后把它放进多阶段流程，并蒸馏到小模型中。**这里看到的。** 模型卡在同样的留出题上测量两个模型；"
        "在 k = {k} 时写出步骤是否有帮助，是从这些数字读出来的，而不是假定的。一个 GRPO 组展示了学习信号从哪里来："
        "只有奖励有差别的组才会推动策略，而且同一个输出的词元一起移动。**试试** 找一道 `direct` 答错的题，先在 RL "
        "之前为它采样几组（被往上推的是写出步骤的输出），再在 RL 之后采样。",
    ),
    # errors
    "reasoning.error.empty": ("Type a problem such as 3+4*3-5.", "请输入一道题，例如 3+4*3-5。"),
    "reasoning.error.long": (
        "That is {n} characters; a problem has at most {max}.",
        "共 {n} 个字符；一道题最多 {max} 个字符。",
    ),
    "reasoning.error.character": (
        "“{char}” cannot appear in a problem: only digits and the signs + - * (or × and −).",
        "题目中不能出现“{char}”：只能有数字和 + - * 这几个符号（也可以用 × 和 −）。",
    ),
    "reasoning.error.start": (
        "A problem starts with one digit, the start value (e.g. 3+4*3-5).",
        "题目要以一个数字开头，即起始值（例如 3+4*3-5）。",
    ),
    "reasoning.error.no_ops": (
        "Add at least one operation after the start digit, such as +4 or *3.",
        "请在起始数字后至少加一个运算，例如 +4 或 *3。",
    ),
    "reasoning.error.form": (
        "After the start digit come operations, each a sign and one digit: +4, -5, *3 (not +12 or ++4).",
        "起始数字之后是若干运算，每个运算是一个符号加一位数字：+4、-5、*3（不能是 +12 或 ++4）。",
    ),
    "reasoning.error.too_many": (
        "That is {n} operations; the models were built for at most {max}.",
        "共 {n} 个运算；这些模型最多只处理 {max} 个。",
    ),
    "reasoning.error.operand": (
        "“{op}” is not one of the task's operations: add or subtract 1–9, multiply by 3, 7 or 9 only (these keep the "
        "ten digits apart).",
        "“{op}”不是这个任务的运算：加减只能用 1–9，乘法只能乘 3、7 或 9（这样十个数字不会混到一起）。",
    ),
    "reasoning.error.k": ("Choose between 1 and {max} operations.", "请选择 1 到 {max} 个运算。"),
    "reasoning.error.policy": ("Unknown policy.", "未知的策略。"),
    "reasoning.error.group": ("Choose a group of 2 to {max} outputs.", "请选择 2 到 {max} 个输出的组。"),
    "reasoning.error.no_curve": (
        "The cot card has no accuracy curve yet: run python -m models.train cot.",
        "cot 的模型卡还没有准确率曲线：请运行 python -m models.train cot。",
    ),
    "reasoning.error.no_training": (
        "No GRPO checkpoint is installed, so there are no recorded curves: run python -m models.train grpo "
        "(docs/training/reasoning.md has every run).",
        "没有安装 GRPO 检查点，因此没有训练曲线：请运行 python -m models.train grpo（每次训练的记录见 "
        "docs/training/reasoning.md）。",
    ),
    # ---- GRPO watched step by step (watch.py): the grpo-run checkpoint's record -------------------------------------
    "reasoning.watch.title": ("GRPO, step by step", "逐步观察 GRPO"),
    "reasoning.watch.intro": (
        "**grpo-run** is grpo trained again from the same start with the same settings and seed, recorded as it "
        "learnt: every one of its {steps} RL steps' batches (mean reward, right answers, completion length, how many "
        "completions write the steps), and at {n} steps the held-out exact match for each number of operations "
        "({per_k} problems per k) and one group the policy sampled, with its rewards and advantages as the run "
        "computed them. Its weights were kept at steps {snaps}: pick the policy *watched run* above to sample a "
        "group from any of them.",
        "**grpo-run** 是从同一起点、用同样的设置和种子重新训练的 grpo，并在学习过程中做了记录：{steps} 个 RL "
        "步中每一步的批次（平均奖励、答对数、补全长度、写出步骤的补全所占比例），以及在 {n} 个步上每种运算个数的"
        "留出集完全匹配率（每个 k {per_k} 道题）和策略采样的一组补全，连同训练时算出的奖励和优势。它的权重保存在"
        "以下各步：{snaps}。在上方选择策略“观察的训练”，即可从其中任一步采样一组。",
    ),
    "reasoning.watch.step": ("RL step", "RL 步"),
    "reasoning.watch.step.help": (
        "{n} recorded steps: 0 is the start (grpo-start, before any RL), {last} the end of training. The figures "
        "mark the step; the group below is one the policy after that many steps sampled.",
        "共记录了 {n} 个步：0 为起点（grpo-start，尚未做 RL），{last} 为训练结束。图中标出该步；下方的一组是"
        "经过这么多步之后的策略采样的。",
    ),
    "reasoning.watch.m.bar": ("Held-out exact match, k = {k}", "留出集完全匹配率，k = {k}"),
    "reasoning.watch.m.bar.help": (
        "Greedy answers of the policy at this step on {n} held-out problems with this many operations; the change "
        "is from step 0.",
        "该步策略在 {n} 道该运算个数的留出题上的贪心回答；变化量相对于步 0。",
    ),
    "reasoning.watch.m.writes": ("Completions that write steps", "写出步骤的补全"),
    "reasoning.watch.m.writes.help": (
        "In this group: completions that write running values before the = sign rather than the answer at once.",
        "本组中在等号之前写出中间值、而不是直接给出答案的补全。",
    ),
    "reasoning.watch.k_line": ("k = {k}", "k = {k}"),
    "reasoning.watch.by_k.caption": (
        "Held-out exact match of greedy answers at each recorded step, one line per number of operations k ({n} "
        "problems per k); dashed: longer than any training question (k > {kmax}). The dotted line marks the step; the "
        "step axis is logarithmic, so the first ten steps get room.",
        "每个记录步上贪心回答的留出集完全匹配率，每种运算个数 k 一条线（每个 k {n} 道题）；虚线：比任何训练题都长"
        "（k > {kmax}）。点线标出所选步；步数轴为对数刻度，前十步因此占有足够的宽度。",
    ),
    "reasoning.watch.writes": ("write the steps", "写出步骤"),
    "reasoning.watch.equal": ("groups with equal rewards (no signal)", "奖励全相同的组（无信号）"),
    "reasoning.watch.share": ("share", "比例"),
    "reasoning.watch.per_step.caption": (
        "Per RL step, of the batch that step sampled and learnt from: the mean completion length (top; dashed, a "
        "right answer that writes every step), and the shares of completions that write the steps, of right answers, "
        "and of groups whose rewards were all equal, whose advantages are then all 0 (bottom).",
        "每个 RL 步中该步采样并用于学习的批次：平均补全长度（上图；虚线为写出每一步的正确答案的长度），以及写出"
        "步骤的补全、正确答案、奖励全相同的组（其优势因而全为 0）各自所占的比例（下图）。",
    ),
    "reasoning.watch.group": ("A group sampled at step {step}", "步 {step} 采样的一组"),
    "reasoning.watch.group.caption": (
        "Question {question} (answer {answer}), sampled during training by the policy after {step} steps: the first "
        "of that batch's questions whose rewards differ (else the first). Rewards by the rule, advantages as the run "
        "computed them: each reward minus the group's mean, over its standard deviation.",
        "题目 {question}（答案 {answer}），由训练中经过 {step} 步的策略采样：该批次中第一道奖励有差别的题"
        "（若没有，则取第一道）。奖励按规则给出，优势与训练时的计算相同：奖励减去组平均，再除以组内标准差。",
    ),
    "reasoning.watch.col.completion": ("sampled in training", "训练中采样的补全"),
    "reasoning.watch.group.flat": (
        "Every completion earned the same reward: the advantages are all 0 and this group moves nothing.",
        "所有补全得到相同的奖励：优势全为 0，这一组不会带来任何更新。",
    ),
    "reasoning.watch.paper": (
        "**In the paper.** DeepSeek-R1-Zero was trained from its base model with GRPO and rule-based rewards alone. "
        "Over the RL steps its pass@1 on AIME 2024 rose from 15.6% to 71.0% (its Figure 2), and the average length "
        "of its responses grew steadily all the while (Figure 3): with no instruction to do so, it learnt to spend "
        "more tokens working on a problem.",
        "**论文中。** DeepSeek-R1-Zero 从基础模型出发，只用 GRPO 和基于规则的奖励训练。在 RL 过程中，它在 "
        "AIME 2024 上的 pass@1 从 15.6% 升到 71.0%（论文图 2），回答的平均长度也一直稳步增长（图 3）：没有任何"
        "指令要求，它自己学会了在一道题上花更多词元去推演。",
    ),
    "reasoning.watch.here.acc": (
        "**Here.** At k = {k} operations, held-out exact match went from {bar0} at step 0 to {bar1} at step "
        "{steps}, and first reached {level} at step {reached}; on the mix of 1 … {kmax} operations, from {mix0} to "
        "{mix1}.",
        "**这里。** 在 k = {k} 个运算上，留出集完全匹配率从步 0 的 {bar0} 升到步 {steps} 的 {bar1}，"
        "在步 {reached} 首次达到 {level}；在 1 … {kmax} 个运算的混合题上，从 {mix0} 升到 {mix1}。",
    ),
    "reasoning.watch.here.acc.never": (
        "**Here.** At k = {k} operations, held-out exact match went from {bar0} at step 0 to {bar1} at step "
        "{steps}, never reaching {level}; on the mix of 1 … {kmax} operations, from {mix0} to {mix1}.",
        "**这里。** 在 k = {k} 个运算上，留出集完全匹配率从步 0 的 {bar0} 变为步 {steps} 的 {bar1}，"
        "始终未达到 {level}；在 1 … {kmax} 个运算的混合题上，从 {mix0} 变为 {mix1}。",
    ),
    "reasoning.watch.here.length.up": (
        "The mean completion grew from {len0} tokens in the first step's batch to {len1} over the last {n} steps, as "
        "the share of completions that write the steps went from {writes0} to {writes1}. It stops there: a right "
        "answer that writes every step has a fixed length ({full} tokens on average over the training questions), and "
        "nothing here pays for more, unlike the open-ended problems R1-Zero learnt to think longer on.",
        "平均补全长度从第一步批次的 {len0} 个词元增长到最后 {n} 步的 {len1} 个，同时写出步骤的补全比例从 "
        "{writes0} 升到 {writes1}。长度到此为止：写出每一步的正确答案长度固定（训练题上平均 {full} 个词元），这里"
        "没有任何东西奖励更长的回答，而 R1-Zero 面对的开放问题则让它学会了想得更久。",
    ),
    "reasoning.watch.here.length.down": (
        "The mean completion shrank from {len0} tokens in the first step's batch to {len1} over the last {n} steps, "
        "while the share of completions that write the steps went from {writes0} to {writes1}.",
        "平均补全长度从第一步批次的 {len0} 个词元缩短到最后 {n} 步的 {len1} 个，写出步骤的补全比例则从 {writes0} "
        "变为 {writes1}。",
    ),
    "reasoning.watch.here.length.flat": (
        "The mean completion stayed near {len0} tokens ({len1} over the last {n} steps), while the share of "
        "completions that write the steps went from {writes0} to {writes1}.",
        "平均补全长度保持在 {len0} 个词元左右（最后 {n} 步为 {len1}），写出步骤的补全比例从 {writes0} 变为 {writes1}。",
    ),
    "reasoning.watch.here.end": (
        "Over the last {n} steps {equal1} of the groups scored all alike; their advantages are 0, so they teach "
        "nothing: the more often the policy is right, the fewer of its groups carry a signal. At k = {near_k}, one "
        "operation longer than any training question, the final policy answered {near1} of the held-out problems.",
        "最后 {n} 步中，有 {equal1} 的组所有补全得分相同；它们的优势为 0，不带来任何学习信号：策略答对得越多，带有"
        "信号的组就越少。在 k = {near_k}（比任何训练题多一个运算）上，最终策略答对了 {near1} 的留出题。",
    ),
    "reasoning.policy.run": ("watched run (grpo-run)", "观察的训练（grpo-run）"),
    "reasoning.error.no_run": (
        "The recorded GRPO run is not installed: run python -m models.train grpo-run.",
        "没有安装记录下来的 GRPO 训练：请运行 python -m models.train grpo-run。",
    ),
}
