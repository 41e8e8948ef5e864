"""English and 简体中文 text of the Alignment page."""

STRINGS = {
    "alignment.intro": (
        "A pre-trained model continues text; it does not follow instructions. **InstructGPT** (2203.02155) aligned "
        "GPT-3 by reinforcement learning from human feedback (**RLHF**), in three steps: imitate demonstrations "
        "(**supervised fine-tuning**, SFT), learn a **reward model** from people's choices between two replies, then "
        "optimise the policy against that reward with **PPO** (proximal policy optimization), held near the SFT model "
        "by a KL penalty. **DPO** (direct preference optimization, 2305.18290) reaches the same objective with one "
        "classification loss on the preference pairs: no reward model, no sampling. Here all four are trained on our "
        "own Shakespeare GPT. The instruction asks for one line in a speaker's voice; a fixed rule plays the labellers "
        "and prefers *warm* replies.",
        "预训练模型只会续写文本，并不听从指令。**InstructGPT**（2203.02155）用基于人类反馈的强化学习（**RLHF**）分三步"
        "对齐 GPT-3：模仿示范回答（**监督微调**，SFT）；从人对两个回答的取舍中学一个**奖励模型**；再用 **PPO**（近端策"
        "略优化）针对这个奖励优化策略，并用 KL 惩罚让它不远离 SFT 模型。**DPO**（直接偏好优化，2305.18290）只在偏好对"
        "上用一个分类损失就达到同一目标：不要奖励模型，也不要采样。这里四个模型都在我们自己的莎士比亚 GPT 上训练。指令"
        "要求以某个角色的口吻回一行；一条固定规则充当标注员，偏爱“温暖”的回答。",
    ),
    "alignment.try.do": (
        "Pick a few example prompts and compare the replies of SFT with those of PPO and DPO; then type two replies "
        "of your own into A and B.",
        "挑几条示例提示，比较 SFT 与 PPO、DPO 的回答；再在 A 和 B 里输入两句你自己的回答。",
    ),
    "alignment.try.see": (
        "The pre-trained GPT never stops; SFT stops after one line but is bland; PPO and DPO reach for kind words "
        "(green). The reward model scores a kind reply above a harsh one, and DPO's strip turns kind words green.",
        "预训练的 GPT 停不下来；SFT 回一行就停，但平淡；PPO 和 DPO 会用上友善的词（绿色）。奖励模型给友善回答的分"
        "高于刻薄回答，DPO 的色条把友善的词染成绿色。",
    ),
    "alignment.try.why": (
        "None of the policies ever saw the rule. Only the preference pairs carried it: into the reward model (which "
        "PPO then chases) or straight into the policy (DPO).",
        "这些策略都从未见过规则本身。只有偏好对携带了它：要么进入奖励模型（PPO 再去追逐它），要么直接进入策略（DPO）。",
    ),
    "alignment.rule.title": ("The preference rule (our labellers)", "偏好规则（我们的“标注员”）"),
    "alignment.rule.body": (
        "A reply that keeps the format — one line of 1 to {max_words} words, then the end token — beats one that "
        "does not. Between two that do, the warmer one wins: **warmth = distinct kind words − distinct harsh "
        "words**. Equal warmth is a tie. Saying *love* three times counts once.",
        "守格式的回答（一行、1 到 {max_words} 个词、然后是结束符）胜过不守格式的。两者都守格式时，更温暖的胜："
        "**温暖度 = 不同的友善词个数 − 不同的刻薄词个数**。温暖度相同算平局。*love* 说三遍只算一次。",
    ),
    "alignment.rule.kind": ("Kind words:", "友善词："),
    "alignment.rule.harsh": ("Harsh words:", "刻薄词："),
    "alignment.prompt.title": ("The prompt", "提示"),
    "alignment.prompt.example": (
        "A held-out prompt (from plays no model trained on)",
        "留出的提示（来自没有模型训练过的剧本）",
    ),
    "alignment.prompt.previous": ("Who spoke before", "上一位说话人"),
    "alignment.prompt.line": ("Their line", "他说的那一行"),
    "alignment.prompt.speaker": ("Reply as", "以谁的口吻回答"),
    "alignment.verdict.broken": ("breaks the format", "不守格式"),
    "alignment.verdict.no_end": ("never wrote the end token", "没有写出结束符"),
    "alignment.verdict.shape": ("not one line of 1–{max} words", "不是一行 1–{max} 个词"),
    "alignment.verdict.score": ("rule's warmth {score}", "规则的温暖度 {score}"),
    "alignment.steps.title": ("1 · The steps, one prompt", "1 · 各步骤，同一个提示"),
    "alignment.steps.body": (
        "Each model's greedy reply to the prompt above, in the order InstructGPT trains them. SFT starts from the "
        "pre-trained GPT; the reward model (step 2), PPO and DPO all start from SFT. The score under each reply is "
        "the reward model's.",
        "每个模型对上面提示的贪心回答，按 InstructGPT 的训练顺序排列。SFT 从预训练 GPT 开始；奖励模型（第 2 步）、"
        "PPO 和 DPO 都从 SFT 开始。每个回答下的分数是奖励模型打的。",
    ),
    "alignment.steps.same": (
        "**Same score, different replies.** PPO and DPO wrote different replies, yet the reward model scores them "
        "{ppo} and {dpo}. Neither copied the other: the reward model is saturated. Any well-formed reply with a kind "
        "word and no harsh one gets about the same ceiling score, {lo} to {hi} on this prompt for {probes}, however "
        "many kind words it holds or repeats. Equal rewards do not mean equal replies: DPO's repetitive reply scores "
        "as high as PPO's, and a score that cannot tell them apart is the door reward hacking comes through.",
        "**分数相同，回答不同。** PPO 和 DPO 写出的回答不一样，奖励模型却给出 {ppo} 和 {dpo}。这不是谁抄了谁，而是奖励"
        "模型饱和了：任何守格式、含友善词而不含刻薄词的回答，都得到差不多的封顶分数——在这个提示上，{probes} 得到 {lo} "
        "到 {hi}，不论友善词有几个、是否重复。奖励相同不代表回答相同：DPO 那句重复的回答得分和 PPO 的一样高；分不出两"
        "者的分数，正是奖励投机（reward hacking）的入口。",
    ),
    "alignment.steps.ceiling": (
        "The reward model's ceiling on this prompt: well-formed replies with a kind word and no harsh one ({probes}) "
        "score {lo} to {hi}, however many kind words they hold or repeat, so near-equal rewards need not mean similar "
        "replies.",
        "奖励模型在这个提示上的封顶分数：守格式、含友善词而不含刻薄词的回答（{probes}）得到 {lo} 到 {hi}，不论友善词有"
        "几个、是否重复；所以奖励接近并不代表回答相近。",
    ),
    "alignment.step.gpt": ("Pre-trained GPT", "预训练 GPT"),
    "alignment.step.gpt.how": ("next-token prediction on the plays", "在剧本上做下一个词预测"),
    "alignment.step.sft": ("1 · SFT", "1 · SFT"),
    "alignment.step.sft.how": ("imitates the plays' real replies", "模仿剧本里真实的回答"),
    "alignment.step.ppo": ("3 · PPO", "3 · PPO"),
    "alignment.step.ppo.how": ("chases the reward model, KL to SFT", "追逐奖励模型，带到 SFT 的 KL"),
    "alignment.step.dpo": ("DPO", "DPO"),
    "alignment.step.dpo.how": ("the pairs directly, no reward model", "直接用偏好对，不要奖励模型"),
    "alignment.reward": ("Reward model's score", "奖励模型打分"),
    "alignment.missing": ("Not installed: {names}.", "未安装：{names}。"),
    "alignment.rm.title": ("2 · The reward model, live", "2 · 奖励模型，实时"),
    "alignment.rm.body": (
        "The reward model is SFT with its output layer replaced by one number, read at the reply's last token. It "
        "was trained on pairs of replies sampled from SFT, each labelled by the rule, with the Bradley–Terry loss "
        "−log σ(r_chosen − r_rejected). Type two replies to the prompt above.",
        "奖励模型就是把 SFT 的输出层换成一个数，在回答的最后一个词元上读出。它用 Bradley–Terry 损失 "
        "−log σ(r_chosen − r_rejected) 训练，训练数据是从 SFT 采样的成对回答，由规则标注。为上面的提示输入两句回答。",
    ),
    "alignment.rm.a": ("Reply A", "回答 A"),
    "alignment.rm.b": ("Reply B", "回答 B"),
    "alignment.rm.a_default": ("Good my lord, I thank you for your love.", "Good my lord, I thank you for your love."),
    "alignment.rm.b_default": ("I know not, sir.", "I know not, sir."),
    "alignment.rm.ra": ("r(A)", "r(A)"),
    "alignment.rm.rb": ("r(B)", "r(B)"),
    "alignment.rm.p": ("P(A preferred to B) = σ(r(A) − r(B))", "P(A 优于 B) = σ(r(A) − r(B))"),
    "alignment.rm.rule_a": ("The rule prefers **A**.", "规则偏好 **A**。"),
    "alignment.rm.rule_b": ("The rule prefers **B**.", "规则偏好 **B**。"),
    "alignment.rm.rule_tie": ("The rule calls it a **tie**.", "规则判为**平局**。"),
    "alignment.rm.agree": ("The reward model agrees.", "奖励模型与之一致。"),
    "alignment.rm.disagree": (
        "The reward model disagrees: it learnt the rule from examples, not the rule itself.",
        "奖励模型不同意：它是从例子里学到规则的，并不知道规则本身。",
    ),
    "alignment.dpo.title": ("3 · DPO, live", "3 · DPO，实时"),
    "alignment.dpo.body": (
        "DPO treats A as the preferred reply and B as the other. Its implicit reward of a reply is "
        "β · log π_DPO(reply) / π_SFT(reply), with β = {beta}; the loss is −log σ(r̂_A − r̂_B). Before training "
        "π_DPO = π_SFT, both implicit rewards are 0 and the loss is log 2 ≈ 0.693.",
        "DPO 把 A 当作被偏好的回答、B 当作另一个。一个回答的隐式奖励是 β · log π_DPO(回答) / π_SFT(回答)，"
        "β = {beta}；损失是 −log σ(r̂_A − r̂_B)。训练前 π_DPO = π_SFT，两个隐式奖励都是 0，损失为 log 2 ≈ 0.693。",
    ),
    "alignment.dpo.rw": ("r̂(A), implicit", "r̂(A)，隐式"),
    "alignment.dpo.rl": ("r̂(B), implicit", "r̂(B)，隐式"),
    "alignment.dpo.loss": ("DPO loss on this pair", "这一对的 DPO 损失"),
    "alignment.dpo.vs_sft": ("vs SFT (log 2)", "相对 SFT（log 2）"),
    "alignment.dpo.strip": (
        "Each token coloured by log π_DPO − log π_SFT: green where DPO made it more likely than SFT did, red where "
        "less (hover for the number). Their sum times β is the implicit reward.",
        "每个词元按 log π_DPO − log π_SFT 着色：绿色表示 DPO 让它比 SFT 更可能，红色表示更不可能（悬停看数值）。"
        "它们的和乘以 β 就是隐式奖励。",
    ),
    "alignment.ppo.title": ("4 · PPO, as it trained", "4 · PPO 的训练过程"),
    "alignment.ppo.body": (
        "PPO's reward for a reply is the reward model's score minus {kl} × (log π − log π_SFT) for each token. "
        "Purple: the learned reward PPO maximises, over {steps} steps. Green: the rule's score, what we actually "
        "want; below it, the win rate against SFT. The dotted line marks the step where that win rate peaked "
        "({peak}).",
        "PPO 给一个回答的奖励是奖励模型的分数，减去每个词元的 {kl} × (log π − log π_SFT)。紫色：PPO 在 {steps} 步里"
        "最大化的学到的奖励。绿色：规则的分数，也就是我们真正想要的；下面是相对 SFT 的胜率。虚线标出胜率最高的那一步"
        "（{peak}）。",
    ),
    "alignment.ppo.diverging": (
        "**Red bands (steps {spans}):** the learned reward rose while the rule's score fell. That is "
        "over-optimisation as it happens: the policy found something the reward model pays for and the rule does "
        "not. Hover the points to see by how much.",
        "**红色区间（步 {spans}）：** 学到的奖励上升，而规则的分数下降。这就是正在发生的过度优化：策略找到了"
        "奖励模型给分而规则不认可的东西。悬停在点上可以看到幅度。",
    ),
    "alignment.ppo.no_diverging": (
        "In this run the learned reward never rose while the rule's score fell.",
        "在这次训练里，没有出现学到的奖励上升而规则分数下降的情况。",
    ),
    "alignment.ppo.reward": ("Learned reward and the rule's score", "学到的奖励与规则分数"),
    "alignment.ppo.win": ("Win rate against SFT, by the rule", "按规则判定的相对 SFT 胜率"),
    "alignment.ppo.kl": ("KL to SFT (nats per reply)", "到 SFT 的 KL（每个回答，奈特）"),
    "alignment.ppo.reward_line": ("learned reward", "学到的奖励"),
    "alignment.ppo.rule_line": ("rule's warmth", "规则的温暖度"),
    "alignment.ppo.reward_axis": ("reward", "奖励"),
    "alignment.ppo.rule_axis": ("warmth", "温暖度"),
    "alignment.ppo.step": ("PPO step", "PPO 步数"),
    "alignment.ppo.peak": ("best win rate", "胜率最高"),
    "alignment.ppo.bar": ("bar 65%", "门槛 65%"),
    "alignment.ppo.note": (
        "Measured during training on greedy replies to {n} held-out prompts (the ppo card).",
        "训练时在 {n} 条留出提示的贪心回答上测得（见 ppo 的模型卡）。",
    ),
    "alignment.samples.title": ("6 · Samples side by side", "6 · 采样并排比较"),
    "alignment.samples.n": ("Replies per model", "每个模型的回答数"),
    "alignment.samples.seed": ("Seed", "随机种子"),
    "alignment.samples.model": ("model", "模型"),
    "alignment.samples.reply": ("reply (temperature 1)", "回答（温度 1）"),
    "alignment.samples.score": ("rule's warmth", "规则温暖度"),
    "alignment.samples.means": ("Mean warmth (−10 for a broken format):", "平均温暖度（不守格式记 −10）："),
    "alignment.llama2.title": ("Llama 2-Chat: the same steps, in rounds", "Llama 2-Chat：同样的步骤，分轮进行"),
    "alignment.llama2.body": (
        "**Llama 2-Chat** (2307.09288) ran this recipe at scale and in rounds. After SFT came RLHF with two reward "
        "models, one for helpfulness and one for safety, since the two can pull against each other. RLHF was iterated "
        "over five versions, RLHF-V1 to V5, as new preference data came in: up to V4 by rejection sampling fine-tuning "
        "alone (sample several replies per prompt, keep the one the reward model scores highest, fine-tune on it), "
        "then with PPO run on top of the rejection-sampling model. Ghost Attention (GAtt) keeps a system instruction "
        "(say, “act as …”) followed over many turns: the model is fine-tuned on dialogues sampled with the instruction "
        "attached to every user turn, then kept only in the first. Ours is one round of InstructGPT's recipe: one "
        "reward model, one PPO run, single-turn prompts.",
        "**Llama 2-Chat**（2307.09288）把这套流程放大并分轮进行。SFT 之后是 RLHF，用两个奖励模型：一个评有用性，一个评"
        "安全性，因为两者可能相互牵制。RLHF 随着新的偏好数据迭代了五个版本（RLHF-V1 到 V5）：到 V4 为止只用拒绝采样微"
        "调（对每个提示采样多个回答，留下奖励模型打分最高的那个，在它上面微调），之后再在拒绝采样得到的模型上运行 PPO"
        "。Ghost Attention（GAtt，幽灵注意力）让模型在多轮对话中一直遵守一条系统指令（比如“扮演……”）：先把指令附在每一"
        "轮用户消息上采样对话，训练时只在第一轮保留它。我们的只是 InstructGPT 流程的一轮：一个奖励模型、一次 PPO 训练"
        "、单轮提示。",
    ),
    "alignment.pvh.model": ("Policy", "策略模型"),
    "alignment.pvh.model.paper": ("GPT-3: 1.3B, 6B and 175B parameters", "GPT-3：13 亿、60 亿和 1750 亿参数"),
    "alignment.pvh.model.here": (
        "our GPT: 2.2M parameters, 4 layers, trained on Shakespeare",
        "我们的 GPT：220 万参数、4 层，在莎士比亚上训练",
    ),
    "alignment.pvh.data": ("Preferences", "偏好"),
    "alignment.pvh.data.paper": (
        "about 40 contractors rank 4 to 9 replies per prompt",
        "约 40 名外包标注员，每个提示给 4 到 9 个回答排序",
    ),
    "alignment.pvh.data.here": (
        "a fixed rule compares 2 of 4 replies sampled from SFT",
        "一条固定规则比较从 SFT 采样的 4 个回答中的 2 个",
    ),
    "alignment.pvh.sft": ("SFT", "SFT"),
    "alignment.pvh.sft.paper": ("demonstrations written by labellers", "标注员写的示范"),
    "alignment.pvh.sft.here": (
        "the plays' real replies; format kept on {acc} of held-out prompts (pre-trained GPT: {base})",
        "剧本里真实的回答；留出提示上 {acc} 守格式（预训练 GPT：{base}）",
    ),
    "alignment.pvh.rm": ("Reward model", "奖励模型"),
    "alignment.pvh.rm.paper": (
        "6B, from the SFT model; 175B was unstable",
        "60 亿参数，由 SFT 模型初始化；1750 亿的不稳定",
    ),
    "alignment.pvh.rm.here": (
        "from SFT; held-out pairwise accuracy {acc}",
        "由 SFT 初始化；留出对上的成对准确率 {acc}",
    ),
    "alignment.pvh.ppo": ("PPO", "PPO"),
    "alignment.pvh.ppo.paper": (
        "KL coefficient 0.02; 1.3B InstructGPT preferred to 175B GPT-3",
        "KL 系数 0.02；13 亿参数的 InstructGPT 胜过 1750 亿参数的 GPT-3",
    ),
    "alignment.pvh.ppo.here": (
        "KL coefficient {beta}; wins {win} against SFT, KL {kl} nats",
        "KL 系数 {beta}；相对 SFT 胜率 {win}，KL {kl} 奈特",
    ),
    "alignment.pvh.dpo": ("DPO", "DPO"),
    "alignment.pvh.dpo.paper": (
        "β = 0.1 unless noted; controlled sentiment (IMDb), summaries (TL;DR), single-turn dialogue (Anthropic HH)",
        "除另有说明外 β = 0.1；受控情感（IMDb）、摘要（TL;DR）、单轮对话（Anthropic HH）",
    ),
    "alignment.pvh.dpo.here": (
        "β = {beta}; wins {win} against SFT, KL {kl} nats",
        "β = {beta}；相对 SFT 胜率 {win}，KL {kl} 奈特",
    ),
    "alignment.dep.size": (
        "Our policy is about 80,000 times smaller than the 175B GPT-3 (about 600 times smaller than the 1.3B "
        "InstructGPT) and writes rough Shakespeare.",
        "我们的策略比 1750 亿参数的 GPT-3 小约 8 万倍（比 13 亿参数的 InstructGPT 小约 600 倍），"
        "写出的莎士比亚很粗糙。",
    ),
    "alignment.dep.labellers": (
        "Preferences come from a rule, not from people. The rule can judge every reply, so a win rate here needs "
        "no labelling; InstructGPT's needed people to compare replies again.",
        "偏好来自规则而不是人。规则能评判每个回答，所以这里的胜率不需要标注；InstructGPT 的胜率需要人再去比较回答。",
    ),
    "alignment.dep.value": (
        "PPO's value function is a second head on the policy's own trunk; InstructGPT kept a separate value model "
        "initialised from the reward model.",
        "PPO 的价值函数是策略主干上的第二个输出头；InstructGPT 则用一个独立的、由奖励模型初始化的价值模型。",
    ),
    "alignment.dep.ptx": (
        "No pre-training mix (InstructGPT's PPO-ptx); the KL penalty alone keeps PPO near SFT.",
        "没有混入预训练梯度（InstructGPT 的 PPO-ptx）；只靠 KL 惩罚让 PPO 靠近 SFT。",
    ),
    "alignment.explain": (
        "**What InstructGPT changed.** Instead of a bigger model, a better objective: people's preferences. Its "
        "labellers preferred the replies of the 1.3B InstructGPT to those of the 175B GPT-3 (2203.02155). The "
        "reward model turns the labellers' comparisons into a score for any reply; PPO then improves the policy "
        "against that score, with a KL penalty so it cannot drift into text the reward model never saw.\n\n"
        "**What DPO changed.** The KL-penalised objective has a closed-form optimum, π* ∝ π_ref · exp(r / β). "
        "Turned around, every policy defines a reward, β · log π / π_ref (up to a term of the prompt alone, which "
        "cancels within a pair), so the Bradley–Terry loss can be put on "
        "the policy directly (2305.18290): one supervised pass over the pairs, no reward model, no sampling.\n\n"
        "**What you are looking at.** Four checkpoints trained here from our GPT. The rule is hidden from every "
        "policy; the pairs are the only way it gets in. **Try:** a reply that repeats one kind word (*love, love, "
        "love*) — does the reward model pay for each repeat, when the rule counts it once? That gap is what a "
        "policy optimised hard against a learned reward can exploit (reward over-optimisation, Gao et al., "
        "2210.10760).",
        "**InstructGPT 改变了什么。** 不是更大的模型，而是更好的目标：人的偏好。它的标注员更喜欢 13 亿参数 "
        "InstructGPT 的回答，而不是 1750 亿参数 GPT-3 的（2203.02155）。奖励模型把标注员的比较变成能给任何回答打的分；"
        "PPO 再针对这个分数改进策略，并用 KL 惩罚防止它漂到奖励模型从未见过的文本上。\n\n"
        "**DPO 改变了什么。** 带 KL 惩罚的目标有闭式最优解 π* ∝ π_ref · exp(r / β)。反过来，每个策略都定义了一个"
        "奖励 β · log π / π_ref（差一个只与提示有关的项，在同一对里相互抵消），"
        "于是可以把 Bradley–Terry 损失直接加在策略上（2305.18290）：在偏好对上做一遍监督"
        "训练，不要奖励模型，也不要采样。\n\n"
        "**你看到的是什么。** 四个检查点都由我们的 GPT 在这里训练而来。规则对每个策略都是隐藏的；偏好对是它进入的"
        "唯一途径。**试试：** 一句重复同一个友善词的回答（*love, love, love*）——规则只算一次，奖励模型会不会每重复"
        "一次就多给分？这个差距正是对学到的奖励用力优化的策略可以钻的空子（奖励过度优化，Gao 等，2210.10760）。",
    ),
    "alignment.error.empty_line": ("Type the line to reply to.", "请输入要回应的那一行。"),
    "alignment.error.empty_previous": ("Type who spoke before.", "请输入上一位说话人。"),
    "alignment.error.empty_speaker": ("Type who replies.", "请输入以谁的口吻回答。"),
    "alignment.error.empty_reply": ("Type a reply in both A and B.", "请在 A 和 B 中都输入回答。"),
    "alignment.error.speaker": (
        "“{name}” is not a speaker's name: use letters (and spaces, ' . -), at most {max}.",
        "“{name}”不是角色名：请用英文字母（可含空格和 ' . -），最多 {max} 个字符。",
    ),
    "alignment.error.long": ("The line has {n} characters; at most {max}.", "这一行有 {n} 个字符；最多 {max} 个。"),
    "alignment.error.reply_long": ("A reply has {n} characters; at most {max}.", "回答有 {n} 个字符；最多 {max} 个。"),
    "alignment.error.samples": ("Between 1 and {max} replies per model.", "每个模型 1 到 {max} 个回答。"),
    "alignment.error.no_curves": (
        "The ppo checkpoint with its training curves is not installed: `python -m models.train ppo`.",
        "未安装带训练曲线的 ppo 检查点：`python -m models.train ppo`。",
    ),
    # ---- PPO and DPO watched step by step (watch.py): the ppo-run and dpo-run cards ---------------------------------
    "alignment.watch.title": ("5 · PPO and DPO, step by step", "5 · 逐步观察 PPO 与 DPO"),
    "alignment.watch.missing": (
        "No recorded run is installed: run python -m models.train ppo-run (or dpo-run).",
        "没有安装记录下来的训练：请运行 python -m models.train ppo-run（或 dpo-run）。",
    ),
    "alignment.watch.run": ("Run", "训练"),
    "alignment.watch.run.ppo": ("PPO (ppo-run)", "PPO（ppo-run）"),
    "alignment.watch.run.dpo": ("DPO (dpo-run)", "DPO（dpo-run）"),
    "alignment.watch.step": ("Training step", "训练步"),
    "alignment.watch.step.help": (
        "{n} steps where the run kept its greedy replies to the same held-out prompts: 0 is SFT before training, "
        "{last} the end. The figure marks the step; the metrics are that step's training batch.",
        "共 {n} 个步保存了对同一批留出提示的贪心回答：0 为训练前的 SFT，{last} 为训练结束。图中标出该步；指标为该步"
        "的训练批次。",
    ),
    "alignment.watch.intro.ppo": (
        "**ppo-run** is ppo trained again from SFT with its settings and seed and recorded: for each of its {steps} "
        "steps, the batch of sampled replies, and at {n} steps the greedy replies below. Its weights are not kept; "
        "the shipped ppo is the same recipe.",
        "**ppo-run** 是从 SFT 出发、用 ppo 的设置和种子重新训练并记录下来的：{steps} 步中每一步采样的回答批次，"
        "以及在 {n} 个步上下方的贪心回答。它的权重没有保存；发布的 ppo 用的是同一个配方。",
    ),
    "alignment.watch.intro.dpo": (
        "**dpo-run** is dpo trained again from SFT on the same kind of pairs with its settings and seed and recorded: "
        "for each of its {steps} steps, the batch of pairs, and at {n} steps the greedy replies below. Its weights are "
        "not kept; the shipped dpo is the same recipe.",
        "**dpo-run** 是从 SFT 出发、在同类偏好对上用 dpo 的设置和种子重新训练并记录下来的：{steps} 步中每一步的"
        "偏好对批次，以及在 {n} 个步上下方的贪心回答。它的权重没有保存；发布的 dpo 用的是同一个配方。",
    ),
    "alignment.watch.m.batch": (
        "Mean over this step's training batch (step 0: the first batch).",
        "该步训练批次上的平均值（步 0：第一个批次）。",
    ),
    "alignment.watch.m.score": ("Reward-model score", "奖励模型分数"),
    "alignment.watch.m.kl": ("KL to SFT (per reply)", "到 SFT 的 KL（每个回答）"),
    "alignment.watch.m.reward": ("Reward PPO maximises", "PPO 最大化的奖励"),
    "alignment.watch.m.chosen": ("Implicit reward, chosen", "隐式奖励，选中的"),
    "alignment.watch.m.rejected": ("Implicit reward, rejected", "隐式奖励，被拒的"),
    "alignment.watch.m.accuracy": ("Pairs ranked right", "排序正确的偏好对"),
    "alignment.watch.score": ("reward-model score", "奖励模型分数"),
    "alignment.watch.reward": ("score − β·KL", "分数 − β·KL"),
    "alignment.watch.kl": ("KL to SFT", "到 SFT 的 KL"),
    "alignment.watch.reward_axis": ("reward", "奖励"),
    "alignment.watch.kl_axis": ("KL (nats per reply)", "KL（每个回答，奈特）"),
    "alignment.watch.chosen": ("chosen", "选中的"),
    "alignment.watch.rejected": ("rejected", "被拒的"),
    "alignment.watch.implicit_axis": ("β log π/π_ref", "β log π/π_ref"),
    "alignment.watch.logp_axis": ("log π − log π_ref", "log π − log π_ref"),
    "alignment.watch.step_axis": ("training step", "训练步"),
    "alignment.watch.caption.ppo": (
        "Per PPO step, over its batch of sampled replies: the reward model's score, the sampled KL to SFT (the sum "
        "over the reply of log π − log π_SFT) and the reward PPO maximises, the score minus β times that KL. Thin: "
        "each step; thick: the mean of 10 steps.",
        "每个 PPO 步在其采样回答批次上的值：奖励模型分数、采样估计的到 SFT 的 KL（回答各词元 log π − log π_SFT "
        "之和），以及 PPO 最大化的奖励，即分数减去 β 乘以该 KL。细线：每一步；粗线：10 步平均。",
    ),
    "alignment.watch.caption.dpo": (
        "Per DPO step, over its batch of pairs: the implicit rewards β log π/π_ref of the chosen and the rejected "
        "replies (top) and the same without β, each reply's log-probability minus the reference's, summed over its "
        "tokens (bottom). Below 0: less likely than under SFT. Thin: each step; thick: the mean of 10 steps.",
        "每个 DPO 步在其偏好对批次上的值：选中与被拒回答的隐式奖励 β log π/π_ref（上图），以及不乘 β 的同一量，"
        "即每个回答在各词元上求和的对数概率减去参考模型的（下图）。低于 0：比在 SFT 下更不可能。细线：每一步；"
        "粗线：10 步平均。",
    ),
    "alignment.watch.replies": ("Greedy replies at step {step}", "步 {step} 的贪心回答"),
    "alignment.watch.col.prompt": ("held-out prompt", "留出提示"),
    "alignment.watch.col.reply": ("reply", "回答"),
    "alignment.watch.col.rule": ("rule", "规则分"),
    "alignment.watch.col.reward": ("reward model", "奖励模型"),
    "alignment.watch.paper.ppo": (
        "**In the paper.** InstructGPT fine-tunes the SFT model with PPO to maximise the reward model's score, with a "
        "per-token KL penalty to the SFT model added to the reward to keep the policy from over-optimising the reward "
        "model (§3.5). What the policy maximises is therefore the score minus β times the KL: the score can keep "
        "rising only as far as the drift from SFT pays for itself.",
        "**论文中。** InstructGPT 用 PPO 微调 SFT 模型以最大化奖励模型的分数，并在奖励中加入到 SFT 模型的逐词元 KL "
        "惩罚，防止策略过度优化奖励模型（§3.5）。因此策略最大化的是分数减去 β 乘以 KL：只有当偏离 SFT 带来的收益"
        "足以抵消惩罚时，分数才会继续上升。",
    ),
    "alignment.watch.paper.dpo": (
        "**In the paper.** DPO's implicit reward of a reply is β log π/π_ref; its gradient raises the chosen reply's "
        "likelihood and lowers the rejected one's, weighted by how wrongly the implicit rewards rank the pair (§4). "
        "The loss only asks for the margin between the two to grow: later work (Pal et al. 2024, 2402.13228) showed "
        "that the chosen replies' likelihood can fall too, as long as the rejected ones' falls faster.",
        "**论文中。** DPO 中一个回答的隐式奖励为 β log π/π_ref；其梯度提高选中回答的似然、降低被拒回答的似然，权重"
        "取决于隐式奖励把这对排错的程度（§4）。损失只要求两者之差变大：后来的研究（Pal 等，2024，2402.13228）表明，"
        "只要被拒回答的似然下降得更快，选中回答的似然也可能下降。",
    ),
    "alignment.watch.here.ppo": (
        "**Here.** Over the first {n} steps the batch's reward-model score averaged {score0}, over the last {n} "
        "{score1}; the KL to SFT went from {kl0} to {kl1} nats per reply, so the reward PPO maximises (β = "
        "{kl_coef}) went from {reward0} to {reward1}. Replies went from {length0} to {length1} tokens on average.",
        "**这里。** 前 {n} 步中批次的奖励模型分数平均为 {score0}，最后 {n} 步为 {score1}；到 SFT 的 KL 从每个回答 "
        "{kl0} 奈特变为 {kl1}，因此 PPO 最大化的奖励（β = {kl_coef}）从 {reward0} 变为 {reward1}。回答平均长度从 "
        "{length0} 个词元变为 {length1} 个。",
    ),
    "alignment.watch.here.dpo": (
        "**Here.** Over the first {n} steps the implicit rewards averaged {chosen0} (chosen) and {rejected0} "
        "(rejected), over the last {n} {chosen1} and {rejected1}, with {accuracy1} of the batch's pairs ranked right "
        "(from {accuracy0}). Against the reference, the chosen replies' log-probability moved by {dchosen1} and the "
        "rejected ones' by {drejected1} (over the last {n} steps, summed over the reply).",
        "**这里。** 前 {n} 步中隐式奖励平均为 {chosen0}（选中）和 {rejected0}（被拒），最后 {n} 步为 {chosen1} 和 "
        "{rejected1}，批次中排序正确的偏好对从 {accuracy0} 升到 {accuracy1}。相对参考模型，选中回答的对数概率变化了 "
        "{dchosen1}，被拒回答的变化了 {drejected1}（最后 {n} 步平均，在回答上求和）。",
    ),
    "alignment.watch.here.dpo.both": (
        "Both fell: DPO widened the margin by making the rejected replies much less likely and the chosen ones "
        "somewhat less likely, the pattern later work reported.",
        "两者都下降了：DPO 拉大差距的方式是让被拒回答变得更不可能，同时选中回答也变得不那么可能，正是后来的研究所"
        "报告的现象。",
    ),
    "alignment.watch.here.dpo.chosen_up": (
        "So not both fell in this run: the chosen replies ended more likely than under SFT, the rejected ones less "
        "likely.",
        "所以这次训练中两者并没有都下降：选中回答最终比在 SFT 下更可能，被拒回答则更不可能。",
    ),
    "alignment.watch.here.dpo.other": (
        "In this run the rejected replies did not end less likely than under SFT.",
        "这次训练中被拒回答最终并没有比在 SFT 下更不可能。",
    ),
    "alignment.error.run": ("Unknown run; choose one of {runs}.", "未知的训练；请在 {runs} 中选择。"),
    "alignment.error.no_run": (
        "The card of {name} has no recorded history: run python -m models.train {name}.",
        "{name} 的模型卡没有训练记录：请运行 python -m models.train {name}。",
    ),
}
