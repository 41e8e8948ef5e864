STRINGS = {
    "features.intro": (
        "A sparse autoencoder (SAE) rewrites one layer's activations as a sum of a few directions out of thousands, "
        "its **features**: read one layer through it and a token's state becomes a short list of features that fire. "
        "Here: **{n:,} features** trained on {model}'s residual stream after block {layer} (of {layers}, counted "
        "from 0; TopK, k = {k}: exactly {k} features fire per token; Gao et al. 2024, arXiv 2406.04093). Put back "
        "in place of the stream, its reconstruction explains {fve:.1%} of the stream's variance and costs the model "
        "{delta:+.3f} nats per token on held-out plays (zeroing the stream costs {zero:+.2f}). {held}",
        "稀疏自编码器（SAE）把某一层的激活改写成几千个方向中少数几个的和，这些方向就是它的**特征**：透过它读这一层，"
        "一个词元的状态就变成少数几个被激活的特征。这里：在{model}块 {layer}（共 {layers} 块，从 0 数起）"
        "之后的残差流上训练的 **{n:,} 个特征**（TopK，k = {k}：每个词元恰好激活 {k} 个特征；"
        "Gao 等 2024，arXiv 2406.04093）。用它的重建替换残差流后，可解释残差流 {fve:.1%} 的方差，"
        "在留出剧本上让模型每个词元多付 {delta:+.3f} 奈特（把残差流置零要多付 {zero:+.2f}）。{held}",
    ),
    "features.model.ours": ("our GPT", "我们的 GPT "),
    "features.model.real": ("{title}", " {title} "),
    "features.held.ours": (
        "Held out: the plays Julius Caesar, Macbeth and Twelfth Night, which neither the model nor the dictionary "
        "trained on.",
        "留出：《裘力斯·凯撒》《麦克白》《第十二夜》三部剧，模型和字典都没有在它们上训练过。",
    ),
    "features.held.real": (
        "Held out: the plays Julius Caesar, Macbeth and Twelfth Night, which the dictionary never trained on; "
        "{title} was pretrained on web text that may well include them. Its stream after block {layer} has "
        "massive activations (Sun et al. 2024, arXiv 2402.17762): the first token's state is about 150 times longer "
        "than the others'. The dictionary passes any state longer than {passthrough:,.0f} through unread; this page "
        "puts <|endoftext|> before your text, as before each document the dictionary read, so that token takes the "
        "massive state and every token of your text is read.",
        "留出：《裘力斯·凯撒》《麦克白》《第十二夜》三部剧，字典从未在它们上训练；{title} 的预训练语料是网络文本，"
        "很可能包含它们。它在块 {layer} 之后的残差流有巨大激活（Sun 等 2024，arXiv 2402.17762）：第一个词元的状态"
        "约比其他词元长 150 倍。字典让长度超过 {passthrough:,.0f} 的状态不经读取直接通过；本页在你的文本前放一个 "
        "<|endoftext|>（字典读过的每篇文档前也有它），由它承担这个巨大的状态，你的文本的每个词元都会被读取。",
    ),
    "features.try.do": (
        "Type a line with a character's name, pick the name's token, and open the first feature it lists.",
        "输入一句带有角色名字的台词，选中名字对应的词元，打开它列出的第一个特征。",
    ),
    "features.try.see": (
        "Its strongest contexts in plays the dictionary never trained on, and the tokens its direction pushes up.",
        "它在字典从未训练过的剧本中最强的上下文，以及它的方向推高的词元。",
    ),
    "features.try.why": (
        "A feature is a direction the autoencoder's objective found useful for rebuilding the stream, not a "
        "concept anyone named: its label here is read off its evidence, and may be wrong.",
        "特征是自编码器的目标函数为重建残差流而找到的方向，并不是谁命名过的概念：这里的标签只是从证据中读出来的，"
        "可能不对。",
    ),
    "features.text": ("Text", "文本"),
    "features.text.help": (
        "At most {chars} characters and {tokens} tokens. {about}",
        "最多 {chars} 个字符、{tokens} 个词元。{about}",
    ),
    "features.text.ours": ("Our GPT was trained on Shakespeare.", "我们的 GPT 是在莎士比亚作品上训练的。"),
    "features.text.real": (
        "{title} reads any English text; the dictionary was trained on Shakespeare's plays.",
        "{title} 能读任何英文文本；字典是在莎士比亚剧本上训练的。",
    ),
    "features.s1": ("1 · The features that fire on each token", "1 · 每个词元上激活的特征"),
    "features.s1.caption": (
        "The strongest {shown} of the {k} features that fire on each token (feature number and activation), "
        "leaving out the dense ones, which fire on more than {dense:.0%} of held-out tokens ({n_dense} of them fire "
        "on this text). Pick a token: its strongest feature opens below.",
        "每个词元上激活的 {k} 个特征中最强的 {shown} 个（特征编号与激活值），不含稠密特征——即在超过 {dense:.0%} "
        "的留出词元上激活的特征（本文本上有 {n_dense} 个）。选中一个词元，下面会打开它最强的特征。",
    ),
    "features.col.token": ("token", "词元"),
    "features.col.features": ("strongest features (activation)", "最强的特征（激活值）"),
    "features.token": ("Token", "词元"),
    "features.pick": ("Feature", "特征"),
    "features.pick.help": (
        "Any of the {n:,} features by number; the list offers the ones that fire on the token picked.",
        "可按编号选择 {n:,} 个特征中的任意一个；列表里是在所选词元上激活的特征。",
    ),
    "features.s2": ("2 · Feature {i}", "2 · 特征 {i}"),
    "features.m.freq": ("Fires on", "激活比例"),
    "features.m.freq.help": (
        "The share of the {tokens:,} held-out tokens (the plays Julius Caesar, Macbeth, Twelfth Night) it fires on.",
        "它在 {tokens:,} 个留出词元（《裘力斯·凯撒》《麦克白》《第十二夜》）中激活的比例。",
    ),
    "features.m.label": ("Label from its evidence", "由证据得出的标签"),
    "features.m.label.help": (
        "The token it fires on in most of its strongest held-out contexts: a guess read off its evidence, not a "
        "name. Its direction promotes most, through the unembedding: {promoted}.",
        "它在最强的留出上下文中最常激活的词元：只是从证据中读出的猜测，不是名称。它的方向经由反嵌入最推高的是：{promoted}。",
    ),
    "features.label": ("“{token}” ({count} of {n})", "“{token}”（{n} 个中的 {count} 个）"),
    "features.dead": (
        "Feature {i} fired on none of the held-out tokens: a dead feature, as {dead:,} of the {n:,} are here.",
        "特征 {i} 在所有留出词元上都没有激活：这是一个死特征，这里 {n:,} 个特征中有 {dead:,} 个是这样。",
    ),
    "features.contexts": ("Strongest contexts in held-out plays", "留出剧本中最强的上下文"),
    "features.contexts.caption": (
        "The token it fires on most strongly is boxed; its activation is on the right.",
        "激活最强的词元加了框；右侧是激活值。",
    ),
    "features.promoted": ("Promotes", "推高"),
    "features.suppressed": ("Suppresses", "压低"),
    "features.effect.caption": (
        "The feature's decoder direction times the final {norm}'s gain, read by every token's embedding (the "
        "unembedding is tied): what adding this direction to the stream pushes up and down, before the layers after "
        "block {layer} act on it. Blocks {next} to {last} still act on the stream before the output, so this direct "
        "reading can miss what the feature does; section 3 measures it through them.",
        "特征的解码方向乘以最终 {norm} 的增益，再与每个词元的嵌入做内积（反嵌入与嵌入共享）：把这个方向加进残差流"
        "会推高和压低什么——不计块 {layer} 之后各层的作用。输出之前还有块 {next} 到 {last} 作用于残差流，"
        "所以这种直接读法可能看不出特征真正的作用；第 3 节穿过这些块来测量它。",
    ),
    "features.s3": ("3 · Switch it off, or scale it", "3 · 关掉它，或缩放它"),
    "features.scale": ("Scale of feature {i}", "特征 {i} 的缩放"),
    "features.scale.help": (
        "0 switches it off; 1 is the model as it is; the stream keeps the autoencoder's reconstruction error, so "
        "only this feature's part changes.",
        "0 表示关掉；1 即模型原样；残差流保留自编码器的重建误差，因此只有这个特征那一部分会改变。",
    ),
    "features.s3.caption": (
        "The next token after your text: the model as it is (grey) and with feature {i} × {scale:g} at every "
        "position (blue). Its activation at the last token: {act:.2f}. Largest change of any token's probability: "
        "{change:.2%}.",
        "你的文本之后的下一个词元：模型原样（灰）与在每个位置把特征 {i} 乘以 {scale:g} 后（蓝）。它在最后一个词元上"
        "的激活：{act:.2f}。任一词元概率的最大变化：{change:.2%}。",
    ),
    "features.clean": ("as it is", "原样"),
    "features.edited": ("feature × {scale:g}", "特征 × {scale:g}"),
    "features.probability": ("probability", "概率"),
    "features.unused": (
        "Feature {i} does not fire on any token of this text: scaling it changes nothing here.",
        "特征 {i} 在这段文本的任何词元上都没有激活：在这里缩放它不会改变任何东西。",
    ),
    "features.hist": ("How strongly it fires", "激活强度的分布"),
    "features.hist.x": ("activation where it fires", "激活值（只计它激活的词元）"),
    "features.hist.y": ("tokens (log)", "词元数（对数）"),  # short: the figure is low, a long title is cut
    "features.hist.caption": (
        "It fires on {fired:,} of the {tokens:,} held-out tokens ({freq:.3%}); its median activation there lies "
        "between {lo:.2f} and {hi:.2f}. Counts on a log scale (each grid line ten times the one below), so a few "
        "strong activations still show. Counted over every held-out token when the dictionary was trained (its "
        "index).",
        "它在 {tokens:,} 个留出词元中的 {fired:,} 个上激活（{freq:.3%}）；这些位置上激活值的中位数在 {lo:.2f} 与 "
        "{hi:.2f} 之间。计数用对数刻度（每条网格线是下面一条的十倍），少数很强的激活也看得见。"
        "这些计数是训练字典时在全部留出词元上统计的（它的索引）。",
    ),
    "features.s5": ("5 · The price of interpretability", "5 · 可解释性的代价"),
    "features.sweep.size": ("{n:,} features", "{n:,} 个特征"),
    "features.sweep.shipped": ("this dictionary ({n:,}, k = {k})", "本字典（{n:,} 个，k = {k}）"),
    "features.sweep.l0": ("L0: features firing per token", "L0：每个词元激活的特征数"),
    "features.sweep.fve": ("variance explained", "解释的方差"),
    "features.sweep.delta": ("Δ loss (nats / token)", "Δ 损失（奈特/词元）"),
    "features.s5.caption": (
        "From the dictionary's card. Each line is one dictionary size, trained briefly ({steps} steps, measured on "
        "{tokens:,} held-out tokens); the star is the dictionary this page reads, trained {shipped_steps:,} steps "
        "({fve:.1%} explained, {delta:+.3f} nats), which is why it sits above every line. Letting more features fire "
        "on each token rebuilds the stream better and costs the model less — for {size:,} features Δ falls from "
        "{d_lo:.2f} nats at k = {k_lo} to {d_hi:.2f} at k = {k_hi} — but then each token is explained by more "
        "features, which is more to read. A larger dictionary explains a little more variance at the same L0 and "
        "leaves more features dead when k is small ({dead:.0%} of {size:,} at k = {k_lo}). These runs explain "
        "{fve_min:.0%} to {fve_max:.0%} of the variance yet cost {d_min:.2f} to {d_max:.2f} nats per token: a high "
        "share of variance explained does not mean the model still works; the loss is the stricter test.",
        "数据来自字典的模型卡。每条线是一种字典大小，只短暂训练（{steps} 步，在 {tokens:,} 个留出词元上测量）；"
        "星号是本页读取的字典，训练了 {shipped_steps:,} 步（解释 {fve:.1%} 的方差，{delta:+.3f} 奈特），"
        "所以它高于所有的线。让每个词元上激活更多特征，残差流重建得更好，模型的损失也更小——{size:,} 个特征时，"
        "Δ 从 k = {k_lo} 的 {d_lo:.2f} 奈特降到 k = {k_hi} 的 {d_hi:.2f}——但每个词元就要由更多特征来解释，"
        "要读的也更多。同样的 L0 下，更大的字典解释的方差略多一些，但 k 小时死特征更多（k = {k_lo} 时 {size:,} 个中有 "
        "{dead:.0%}）。这些运行解释了 {fve_min:.0%} 到 {fve_max:.0%} 的方差，却让每个词元多付 {d_min:.2f} 到 "
        "{d_max:.2f} 奈特：解释的方差比例高，并不代表模型仍然正常工作；损失才是更严格的检验。",
    ),
    "features.s5.none": (
        "This dictionary's card has no sweep: training it took {minutes:.0f} minutes of this machine, so the sweep "
        "of sizes and k was run on our GPT's stream instead. Pick our GPT above to see it.",
        "这个字典的模型卡没有扫描：训练它花了这台机器 {minutes:.0f} 分钟，所以大小与 k 的扫描改在我们的 GPT 的"
        "残差流上做。在上方选择我们的 GPT 即可看到。",
    ),
    "features.is_not": (
        "**What a feature is, and is not.** A feature is a direction in the stream that the autoencoder's objective "
        "(rebuild the stream from a few directions at a time) found useful. Some read as one concept; nothing "
        "guarantees it: a label read off its evidence can be wrong, and a differently sized dictionary splits or "
        "merges the same directions differently. With TopK a feature fires only where it is among the k strongest "
        "of that token, so whether it fires depends on the others too. Some features never fire on held-out text "
        "(**dead**: {dead_share:.1%} of the {n:,} here), some fire on more than {dense:.0%} of all tokens "
        "(**dense**: listed apart in section 1) and say little about any one token. And the dictionary does not "
        "explain everything: its reconstruction leaves {fve_rest:.1%} of the stream's variance out, and put in the "
        "stream's place it costs the model {delta:+.3f} nats per token — the part of the model no feature accounts "
        "for.",
        "**特征是什么，不是什么。** 特征是残差流中的一个方向，是自编码器的目标函数（每次只用少数方向重建残差流）"
        "认为有用的方向。有的读起来像一个概念，但没有任何保证：从证据中读出的标签可能不对，换一个大小的字典，"
        "同样的方向会被拆分或合并成不同的样子。在 TopK 下，特征只有在该词元最强的 k 个之中才会激活，"
        "所以它是否激活也取决于其他特征。有些特征在留出文本上从不激活（**死特征**：这里 {n:,} 个中占 "
        "{dead_share:.1%}），有些在超过 {dense:.0%} 的词元上都激活（**稠密特征**：第 1 节单独列出），"
        "对任何一个词元都说明不了多少。字典也解释不了一切：它的重建漏掉残差流 {fve_rest:.1%} 的方差，"
        "用它替换残差流会让模型每个词元多付 {delta:+.3f} 奈特——这是没有任何特征能解释的那部分模型。",
    ),
    "features.paper": (
        "**In the papers, and here.**\n"
        "- Bricken et al. 2023, *Towards Monosemanticity* (Anthropic, transformer-circuits.pub): a ReLU autoencoder "
        "with an L1 penalty on the MLP activations of a one-layer transformer; larger dictionaries split a feature "
        "into finer ones, and dead features were resampled during training. Here: a model of {layers} blocks, read "
        "in the residual stream after block {layer}, and no L1 penalty.\n"
        "- Gao et al. 2024 (arXiv 2406.04093): TopK keeps the k largest activations, so sparsity is set directly "
        "rather than tuned through a penalty; an auxiliary loss (AuxK) lets dead features learn again; dictionaries "
        "up to 16 million features on GPT-4, judged also by the loss the model pays with the reconstruction in place. "
        "Here: the same recipe (TopK with AuxK) at {n:,} features on a {width}-wide stream, k = {k}, judged the same "
        "way (Δ nats).\n"
        "- Rajamanoharan et al. 2024 (arXiv 2407.14435), JumpReLU: each feature has its own learned threshold below "
        "which it is 0, trained with an L0 penalty through straight-through estimators; on Gemma 2 9B it rebuilt "
        "activations at least as faithfully as TopK and Gated autoencoders at the same sparsity, and Gemma "
        "Scope's dictionaries use it. Here: every token has exactly k = {k} features (fewer only where fewer "
        "pre-activations are positive), where JumpReLU lets the count vary from token to token.",
        "**论文中与这里。**\n"
        "- Bricken 等 2023，*Towards Monosemanticity*（Anthropic，transformer-circuits.pub）：在单层 Transformer "
        "的 MLP 激活上训练带 L1 惩罚的 ReLU 自编码器；字典越大，一个特征会被拆分成更细的几个；训练中对死特征重新"
        "采样。这里：{layers} 个块的模型，读的是块 {layer} 之后的残差流，没有 L1 惩罚。\n"
        "- Gao 等 2024（arXiv 2406.04093）：TopK 只保留最大的 k 个激活，稀疏度直接设定，而不是通过惩罚项去调；"
        "辅助损失（AuxK）让死特征重新学习；在 GPT-4 上训练了多达 1600 万个特征的字典，也用重建替换激活后模型多付的"
        "损失来评价。这里：同样的做法（TopK 加 AuxK），{width} 维残差流上的 {n:,} 个特征，k = {k}，"
        "也用同样的方式评价（Δ 奈特）。\n"
        "- Rajamanoharan 等 2024（arXiv 2407.14435），JumpReLU：每个特征有自己学到的阈值，低于阈值即为 0，"
        "用 L0 惩罚并借直通估计器训练；在 Gemma 2 9B 上，相同稀疏度下它的重建不逊于 TopK 和 Gated 自编码器，"
        "Gemma Scope 的字典就用它。这里：每个词元恰好 k = {k} 个特征（只有正的预激活不足 k 个时才更少），"
        "而 JumpReLU 让这个数目随词元变化。",
    ),
    "features.error.empty": ("Type a text first.", "请先输入文本。"),
    "features.error.long": ("At most {chars} characters.", "最多 {chars} 个字符。"),
    "features.error.tokens": (
        "This text is {n} tokens; the microscope reads at most {max}.",
        "这段文本有 {n} 个词元；显微镜最多读取 {max} 个。",
    ),
    "features.error.index": ("Features are numbered 0 to {max}.", "特征编号为 0 到 {max}。"),
    "features.s4": ("4 · Steering: add a direction while the model writes", "4 · 引导：在模型写作时加上一个方向"),
    "features.s4.caption": (
        "Activation addition (Turner et al. 2023, arXiv 2308.10248) adds one fixed vector to the residual stream at "
        "one layer while the model generates; contrastive activation addition (Rimsky et al. 2023, arXiv 2312.06681) "
        "makes it from the difference of mean activations of two sets of prompts. Those papers add it at the prompt's "
        "first positions (ActAdd) or after the prompt (CAA); here it is added at every position, prompt included. "
        "Greedy decoding, the same for both runs.",
        "激活加法（Turner 等 2023，arXiv 2308.10248）在模型生成时，往某一层的残差流里加上一个固定向量；对比激活加法"
        "（Rimsky 等 2023，arXiv 2312.06681）用两组提示的平均激活之差构造这个向量。论文里把它加在提示开头的位置"
        "（ActAdd）或提示之后（CAA）；这里加在每个位置上，提示也包括在内。两次运行都用贪心解码。",
    ),
    "features.steer.source": ("Direction", "方向"),
    "features.steer.by_feature": ("feature {i}'s decoder direction", "特征 {i} 的解码方向"),
    "features.steer.by_prompts": ("difference of two prompt lists' means", "两组提示均值之差"),
    "features.steer.source.help": (
        "A feature's direction is its column of the dictionary's decoder, added at the dictionary's layer. The two "
        "lists need no dictionary: the direction goes from list B's mean state at the last token to list A's, at "
        "the block you choose.",
        "特征方向就是字典解码器中它的那一列，加在字典所在的层。两组提示不需要字典：方向从 B 组在最后一个词元上的"
        "平均状态指向 A 组的，加在你选择的块之后。",
    ),
    "features.steer.prompt": ("Prompt to continue", "要续写的提示"),
    "features.steer.a": ("List A: toward (one prompt per line)", "A 组：朝向（每行一个提示）"),
    "features.steer.b": ("List B: away from (one prompt per line)", "B 组：背离（每行一个提示）"),
    "features.steer.list.help": (
        "Each line is one prompt; its state after the chosen block at its last token joins the list's mean.",
        "每行一个提示；它在所选块之后、最后一个词元上的状态计入该组的均值。",
    ),
    "features.steer.layer": ("After block", "加在块之后"),
    "features.steer.layer.help": (
        "The stream after this block (of {layers}, counted from 0) is where the direction is read and added.",
        "在这个块（共 {layers} 块，从 0 数起）之后的残差流上读出并加上方向。",
    ),
    "features.steer.alpha": ("α (steering strength)", "α（引导强度）"),
    "features.steer.alpha.help": (
        "In units of the stream's typical length at that layer: α = 1 adds a vector as long as the median token's "
        "state there; negative α pushes the other way. 0: no steering.",
        "单位是该层残差流的典型长度：α = 1 加上的向量与那里中位词元状态一样长；α 为负则推向相反方向。0：不引导。",
    ),
    "features.steer.n": ("New tokens", "新词元数"),
    "features.steer.running": ("Generating twice: plain and steered…", "正在生成两次：原样与引导后……"),
    "features.steer.unit": (
        "α's unit: ν = {norm:.1f}, the median length of the stream after block {layer} over the prompt's tokens; "
        "the vector added has length |α| · ν = {added:.1f}.",
        "α 的单位：ν = {norm:.1f}，即块 {layer} 之后残差流在提示各词元上长度的中位数；所加向量的长度为 "
        "|α| · ν = {added:.1f}。",
    ),
    "features.steer.plain": ("Plain", "原样"),
    "features.steer.steered": ("Steered, α = {alpha:g}", "引导后，α = {alpha:g}"),
    "features.steer.same": (
        "The two continuations are the same tokens (with α = 0 they always are: the same computation).",
        "两段续写的词元完全相同（α = 0 时总是如此：计算完全相同）。",
    ),
    "features.steer.m.kl": ("KL, first new token", "KL，第一个新词元"),
    "features.steer.m.kl.help": (
        "KL(plain ‖ steered) of the next-token distributions right after the prompt, in nats: 0 when nothing moved.",
        "紧接提示之后下一个词元分布的 KL(原样 ‖ 引导后)，单位奈特：没有变化时为 0。",
    ),
    "features.steer.m.first": ("First new token", "第一个新词元"),
    "features.steer.m.logit": ("Largest logit change", "最大的 logit 变化"),
    "features.steer.m.logit.help": (
        "The largest |Δ logit| of any token at the first new token. A change shared by every logit moves no "
        "probability; the KL and the bars below are what moved.",
        "第一个新词元处任一词元 |Δ logit| 的最大值。所有 logit 共同的变化不改变概率；KL 与下面的条形图才是真正的变化。",
    ),
    "features.steer.rises": ("rises", "上升"),
    "features.steer.falls": ("probability falls", "概率下降"),
    "features.steer.shift.caption": (
        "The tokens whose probability as the first new token rises (blue) and falls (red) most with the vector "
        "added: steered minus plain.",
        "加上向量后，作为第一个新词元概率上升（蓝）和下降（红）最多的词元：引导后减去原样。",
    ),
    "features.error.model": (
        "The microscope has dictionaries for gpt and smollm2-135m, not for {name}.",
        "显微镜只有 gpt 和 smollm2-135m 的字典，没有 {name} 的。",
    ),
    "features.error.steer_source": ("Pick a direction: a feature or two lists.", "请选择方向：特征或两组提示。"),
    "features.error.steer_prompt_empty": ("Type a prompt to continue.", "请输入要续写的提示。"),
    "features.error.steer_prompt_long": ("A prompt of at most {chars} characters.", "提示最多 {chars} 个字符。"),
    "features.error.steer_tokens": (
        "A prompt here is {n} tokens; steering reads at most {max}.",
        "这里有一个提示有 {n} 个词元；引导最多读取 {max} 个。",
    ),
    "features.error.steer_list_empty": (
        "List {which} is empty: write at least one prompt, one per line.",
        "{which} 组是空的：请至少写一个提示，每行一个。",
    ),
    "features.error.steer_list_long": (
        "List {which} is over {chars} characters.",
        "{which} 组超过 {chars} 个字符。",
    ),
    "features.error.steer_list_many": (
        "List {which} has more than {max} prompts.",
        "{which} 组的提示超过 {max} 个。",
    ),
    "features.error.steer_same": (
        "The two lists give the same mean state: no direction between them.",
        "两组提示的平均状态相同：它们之间没有方向。",
    ),
    "features.error.steer_n": ("From 1 to {max} new tokens.", "新词元数为 1 到 {max}。"),
    "features.error.steer_alpha": ("α goes from −{max:g} to {max:g}.", "α 的范围是 −{max:g} 到 {max:g}。"),
    "features.error.steer_layer": ("Blocks are numbered 0 to {max}.", "块编号为 0 到 {max}。"),
}
