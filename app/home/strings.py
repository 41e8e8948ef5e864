"""Strings of the home page (the timeline of the papers and the cards that link the pages)."""

STRINGS = {
    "home.nav": ("Home", "首页"),
    "home.title": ("Transformer Explorer", "Transformer 探索器"),
    "home.intro": (
        "Probe Transformer-era models, small ones we trained ourselves and a few released ones: open a page, change "
        "an input, and watch attention, routing or state change live. What a model shows comes from a real forward "
        "pass; a few pages also work out sizes with calculators or quote numbers published in the papers, and say "
        "which.",
        "探索 Transformer 时代的模型：我们亲自训练的小模型，以及几个已发布的模型。打开一个页面，改变输入，实时观察"
        "注意力、路由或状态的变化。模型显示的内容来自一次真实的前向计算；少数页面还用计算器推算规模，或引用论文发表"
        "的数字，并会注明是哪一种。",
    ),
    "home.paths.title": ("Learning paths", "学习路径"),
    "home.paths.caption": (
        "Guided tours through a few pages in reading order: each stop opens a page ready for a task, and the "
        "Lessons page keeps your progress in this browser, with a worksheet per path.",
        "按阅读顺序走过几个页面的导览：每一站打开一个为任务准备好的页面；课程页面在这个浏览器里记录你的进度，"
        "每条路径还有一份练习单。",
    ),
    "home.paths.start": ("Start: {n} stops", "开始：共 {n} 站"),
    "home.paths.all": ("All paths on the Lessons page", "在课程页面查看全部路径"),
    "home.start": ("Start here", "从这里开始"),
    # "Start here" labels: the catalog's short names, translated where they are words rather than names
    "home.short.forward_pass": ("Forward pass", "前向计算"),
    "home.short.scaling": ("Scaling laws", "缩放定律"),
    "home.start.caption": (
        "A suggested order: each page builds on the ones before it. Attention first, then a whole forward pass, "
        "the two ways to pre-train it, and on to what changed the block, attention-free models and the scale era.",
        "建议的阅读顺序：每个页面都建立在前面页面的基础上。先看注意力，再看一次完整的前向计算、两种预训练方式，"
        "然后是对模块本身的改进、不用注意力的模型，以及规模化时代。",
    ),
    "home.timeline": ("Timeline of the papers", "论文时间线"),
    "home.timeline.caption": (
        "One row per paper, at its year, grouped by era. Hover over or tap a dot for the paper's title and arXiv ids. "
        "Every paper has a page: open it from its card below.",
        "每篇论文占一行，按年份放置、按时代分组。将鼠标悬停在圆点上或轻点圆点，可查看论文标题和 arXiv 编号。"
        "每篇论文都有页面：可从下方的卡片打开。",
    ),
    "home.available": ("Pages available", "可用页面"),
    "home.open": ("Open", "打开"),
    "home.year": ("Year", "年份"),
    "home.how": (
        "The sidebar switches the language and the backend (PyTorch or ONNX Runtime); every figure shows what ran "
        "and how long it took. The address bar keeps a page's settings, so a link reproduces what you see.",
        "侧边栏可以切换语言和推理后端（PyTorch 或 ONNX Runtime）；每个图都标明运行所用的后端和耗时。"
        "地址栏会保存页面设置，分享链接即可重现你看到的内容。",
    ),
}
