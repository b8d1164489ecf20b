"""What a message asks for: what the project remembers, or work on the thing at hand and what anyone
could answer (issue 15's quietness). Recall asks this of every message; a message of the second
kind gets a card only for a note that holds most of what it says.

Two readings: rules for the forms that say it outright, and a learned reading (logistic regression
over the message's words and opening, `learn` below, `recall_weights.json` its output) for the
forms the rules do not name. The weights are learned from the public recall sets
(tests/fixtures/recall/*.json: an answerable prompt asks about the project, a no-answer prompt
does not) and never edited by hand; docs/search.md says how to relearn them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from .logistic import fit, probability

WEIGHTS = "recall_weights.json"
# The learned reading counts a message as one anyone could answer above this probability: chosen
# by leaving each recall set out in turn (trained on the others, scored on it): at 0.7, 9 of 873
# answerable prompts and 194 of 229 no-answer prompts were called general (docs/BENCH.md). Raised to
# 0.75 at 63 sets (session 25), where "how does dunning work" had moved to 0.703 with a relearning:
# leave-one-out 16 of 2,734 answerable and 698 of 801 no-answer prompts called general (at 0.7: 24 and
# 708), and over every set's real recall no no-answer prompt got a card it had not had. Lowered to 0.4 at 200
# sets (session 46): trained without held-outs 170-199 and run through the real recall on them and on two sets
# written after (1,280 answerable and 448 no-answer prompts), the line at 0.75 left 112 no-answer prompts with a card
# and missed 92 answers; at 0.4, 86 and 96 (at 0.25: 79 and 100). Quietness on sets written apart was the weak
# figure (two in three on first write), and a card for a general question costs less than a lost answer only up to
# a point; leave-one-set-out, 2.7 % of answerable prompts are then read as general (alone; recall asks the reading
# only of a note that fails the bar of work).
GENERAL_ABOVE = 0.4
# ... and lower where the note that brought an English question holds one term of it (session 55): a question that shares
# a single word with the project is more often the world's. Held-out sets 228-267 and 180-227, each left out of the learning
# in turn and run through the real recall: at 0.3, 7 and 2 fewer no-answer prompts given a card (of 102 and 102), 0 and 1
# answers lost (of 1,616 and about 1,900). For Chinese too it lost short cross-lingual questions, which hold one term by
# their nature (为什么选 Kafka); at 0.25 and 0.2 for both, 10 and 7 / 14 and 11 fewer cards, 1 and 4 / 5 and 5 answers lost.
GENERAL_ABOVE_ONE_TERM = 0.3
# ... and lower again where the note holds little of the message word for word (session 57): the line follows the note's
# strict share, 0.1 + 0.5 x share, up to the lines above. Left out of the learning in two slices (228-279, 180-227) and run
# through the real recall: 22 fewer no-answer prompts given a card (178 -> 168, 94 -> 82) for 8 more answers missed
# (186 -> 191, 124 -> 127); other points tried: (0.15, 0.5) -8 / +2, (0.05, 0.7) -17 / +6, (0.2, 0.4) -3 / +2.
GENERAL_LINE_BASE = 0.1
GENERAL_LINE_PER_SHARE = 0.5
L2 = 0.01
# A no-answer prompt weighs three answerable ones: the sets hold four times as many of the latter.
GENERAL_WEIGHT = 3.0
MIN_FEATURE_COUNT = 2

# A message that asks for work asks for it on the thing at hand ("summarise this stack trace",
# "sort this list by eta", 把这段代码改成异步的) or names the task outright ("rename the export
# function", "make the chart colors nicer", "write a haiku about deploys"), not for what the project
# remembers: the one word it shares with a note's title names what to work on, not a topic. Such a
# message needs two shared terms. "This project" and "this repo" are the project, not a thing at hand.
_AT_HAND = re.compile(r"\b(this|these)\b(?!\s+(project|repo|repository|codebase|monorepo|service|app|team|company|org|workspace|"
                      # a time is no thing at hand ("the bill doubled this month")
                      r"morning|afternoon|evening|week|weekend|fortnight|month|quarter|year|sprint|time|days)s?\b)"
                      # (这个月, 这个星期: a time, as above)
                      r"|这(段|些|个)(?!项目|仓库|服务|团队|公司|月|星期|礼拜|周|季度|学期|时候|点|年|阶段|时间)")
_TASK = re.compile(r"^\s*(please\s+|(can|could|would|will) you\s+(please\s+)?)?(make|fix|rename|refactor|rewrite|write|add|explain|translate|"
                   r"summari[sz]e|convert|format|sort|draw|generate|tidy|clean up|optimi[sz]e|speed up|debug)\b"
                   r"|^\s*(please\s+|(can|could|would|will) you\s+(please\s+)?)?give me (a|an|some) (\w+ )?(function|script|snippet|regex|regular expression|"
                   r"example|one-liner|query|command|class|method|program)\b"
                   # (in a language named first: 用 Java 写一个快速排序)
                   r"|^\s*(请你?|麻烦你?|你能|能不能|可以)?(帮我)?((用|使用) ?[a-z][\w.+# -]{0,20}?)?(写|编写|生成|实现|画|设计|起)(一个|一段|一份|一篇|一封|一首|一条|几个|几条|个|段|篇|封|首|条)")

# A question about the thing at hand asks what the project knows of it ("who looked at this
# applicant's profile", "where do I deploy this service"); "what does this function do" asks for work.
_QUESTION = re.compile(r"^\s*(who|whom|whose|where|when|which|how|why|is|are|was|were|does|do|did|can|could|should|has|have)\b")

# A question anyone could answer asks nothing of what the project remembers: the difference
# between two things, a good name for one, a joke or a poem about one, who heads or made something
# that is not ours ("who is the ceo of github"), why a thing is called so, what time it is or which
# time zone a place is in, what is so "in the world", how a thing (with "a": any such thing) works,
# how many days until a date, how to do something in a language.
# The one word it shares with a note names the subject, not a topic of the project's.
_LANGUAGES = (r"(python|ruby|javascript|js|typescript|ts|go|golang|rust|java|kotlin|swift|elixir|php|c\+\+|c#|sql|bash|shell|css|html|"
              r"react( native)?|vue|django|rails|spring( boot)?|flask|fastapi|laravel|angular|svelte|node(\.js)?|dart|flutter|scala)")
# A sum ("what is 12 times 500", "17 乘以 23 等于多少") asks what anyone could work out, and no number a note holds answers it.
_SUM_SOURCE = (r"^\s*(what('s| is)|whats|calculate|compute|how much is)\s+[\d.,]+\s*(times|x|\*|×|plus|\+|minus|-|divided by|/|multiplied by|to the power of"
               r"|%\s*of|percent of|per cent of)\s*[\d.,]+\s*[?.]?\s*$"
               r"|^\s*[\d.,]+\s*(乘以|乘|加上|加|减去|减|除以)\s*[\d.,]+\s*(等于|是)?(多少|几)\s*[?？]?\s*$"
               r"|^\s*[\d.,]+\s*的\s*([\d.,]+\s*%|百分之[\d.一二三四五六七八九十]+)\s*(等于|是)?(多少|几)\s*[?？]?\s*$")
_SUM = re.compile(_SUM_SOURCE)
_SUM_WORDS = ("what", "calculate", "compute", "how much", "多少", "几")
# Each reading of `_GENERAL` with the words it cannot match without (in the lowered message): compiling them all
# cost the hook ~9 ms of its start-up, in a process that reads one message; `re` compiles a reading (once) only for
# a message that holds one of its words.
_GENERAL: tuple[tuple[tuple[str, ...], str], ...] = (
    (("between",), r"^\s*((what('s| is| are)|whats) the |the )?(differences?|diff) between\b"),
    (("name", "title"),
     r"\b(a|an|some) (good|nice|cool|catchy|better|fun|short) (name|names|title) for\b"
     r"|^\s*(suggest|give me|come up with|brainstorm|list) (a |a few |some |two |three |four |five |ten |\d+ )?((good|nice|cool|catchy|fun|short) )?(\w+ )?(name|names|title|titles) for\b"),
    # something good to read, hear or watch on a subject ("a good book about negotiation", "recommend a podcast about Elixir")
    (("book", "podcast", "course", "tutorial", "video", "blog", "talk", "article", "resource"),
     r"\b(a|an|some|any) (good|great|nice|decent|solid) (books?|podcasts?|courses?|tutorials?|videos?|blogs?|talks?|articles?|resources?) (about|on|for|to learn)\b"
     r"|^\s*(recommend|suggest) (me )?(a |an |some |any )?(good |great )?(books?|podcasts?|courses?|tutorials?|videos?|blogs?|talks?|articles?|resources?) (about|on|for|to learn)\b"),
    (("推荐",), r"^(?!.*(我们|咱们|本项目))\s*(请|帮我)?推荐(一|几|两|三)?(本|个|些|部|门|套)?[^。？?]{0,24}的?(书|书籍|教程|课程|视频|播客|博客|课外书)\s*[?？]?\s*$"),
    # how a thing of the world works, asked to be explained ("explain how header bidding works"); not ours
    (("explain",), r"^\s*explain (to me )?how (?!(our|we|this|my|the project|the team)\b)(an? |the )?[\w.+#-]+( [\w.+#-]+){0,3} (works?|is done|happens)( in general)?\s*[?.]?\s*$"),
    # what is usual "at most" places of a kind ("what time is check-in at most hotels"): the world's habit, not ours
    (("most",), r"^(?!.*\b(we|our|us)\b).*\b(at|in|for|with|among) most (\w+ )?[a-z]+s\b(?! (we|our)\b)"),
    (("why",),
     r"^\s*why (is|are|was|were)\b.*\b(called|named)\b"
     rf"|^\s*why (does|do|did|is|are) ({_LANGUAGES}|linux|git) (have|has|use|need|not)\b"
     # why the world's firms or people choose a kind of thing ("why do companies use applicant tracking systems"); not
     # why we, or our users, do
     r"|^(?!.*\b(we|our|us|ours)\b)\s*why (do|does|would|should|did) (most |many |some |so many )?(people|companies|businesses|firms|"
     r"organi[sz]ations|enterprises|developers|engineers|programmers|teams|startups|anyone|everyone) (use|choose|prefer|adopt|pick|like|buy)\b"),
    # sums ("what is 12 times 500"): `_SUM`
    (_SUM_WORDS, _SUM_SOURCE),
    # what a person anywhere does ("how much water does a person use per day on average"); not what our customers do
    (("person", "household", "family", "adult", "human", "child", "american", "european", "developer"),
     r"^(?!.*\b(we|our|us|ours)\b).*\b(does|do|should|can) (a|an|the average|an average) (person|household|family|adult|human|child|american|european|developer) "
     r"(use|need|eat|drink|spend|earn|sleep|consume|produce|weigh|live|breathe|walk|read|watch|pay|make)\b"),
    # asked of the world in so many words ("what is RevPAR in general", "is Rust safer than C in general")
    (("in general",), r"^(?!.*\b(we|our|us|ours|this project|this repo|the project)\b).*\bin general\s*[?.!]?\s*$"),
    # how a thing of the world is built inside ("Redis 的 ZSET 底层是怎么实现的", "HTTPS 的原理"), not ours, and how a thing
    # works in general, asked in Chinese (解释一下 Kafka 的分区机制, 给我讲讲 TCP 的原理)
    (("原理", "底层", "机制", "概念", "工作方式"),
     r"^(?!.*(我们|咱们|本项目|这个项目|我们的|项目里)).*(底层(是)?(怎么|如何)实现|实现原理|工作原理|底层原理|的原理)"
     r"|^(?!.*(我们|咱们|本项目|这个项目))\s*(请|麻烦)?你?(给我|跟我|帮我|和我|为我)?(解释|讲解|介绍|讲讲|说说)(一下)?[^。？?]{0,24}(的)?(原理|机制|概念|工作方式|底层实现)"),
    # advice on a skill or task anyone has ("what's the best way to learn DICOM", 期末复习有什么好方法, 倒车入库有什么技巧);
    # not how we do it ("what's the best way to deploy our API")
    (("way to", "ways to"),
     r"^(?!.*\b(we|our|us|ours|my|this project|this repo|the project)\b)\s*what(?:'s| is| are) (?:the|a|some) (?:best|good|easiest|quickest|right) ways? to\b"),
    (("方法", "办法", "技巧", "窍门", "诀窍"), r"^(?!.*(我们|咱们|本项目|这个项目|项目里|我的)).*有(?:什么|哪些|啥)(?:好的?)?(?:好方法|好办法|技巧|窍门|诀窍)"),
    # whether a thing of the world is worth its price ("is Sidekiq Pro worth paying for"); not "is our plan worth it"
    (("worth",),
     r"^\s*(is|are) (?!(our|we|us|this|that|it|the (project|team|plan))\b)[\w .+#-]{1,40}? worth (it|paying for|buying|the (money|price|cost)|learning|upgrading to|switching to)\b(?!.*\b(we|our|us)\b)"),
    (("joke", "poem", "limerick", "haiku", "riddle", "song", "story", "pun"),
     r"\b(a|an|some|another) (joke|jokes|poem|poems|limerick|haiku|riddle|song|short story|bedtime story|pun|puns) (about|on|for|with)\b"),
    # ... and in Chinese (写一首关于期末考试的诗, 讲个关于程序员的笑话)
    (("诗", "笑话", "段子", "故事", "对联", "绕口令", "歌词"),
     r"^(?!.*(我们|咱们|本项目|这个项目))\s*(请|帮我|给我|麻烦)?(写|作|编|来|讲)(一首|首|一个|个|一段|段|几个|几首|一则|则|一副|副)[^。？?]{0,24}"
     r"(诗|诗歌|打油诗|藏头诗|歌词|笑话|段子|故事|对联|绕口令)\s*[?？。!！]?\s*$"),
    (("who",),
     r"^\s*who (is|was|are|were) the (ceo|cto|cfo|founder|founders|co-?founder|president|prime minister|king|queen|inventor|creator|author) of (?!(the|our|this|my|your)\b)"
     # who made a thing of the world ("who created Ruby on Rails", "who wrote Pride and Prejudice"); not
     # "who wrote the migration guide", "who created our staging cluster"
     r"|^\s*who (first )?(invented|created|founded|discovered|designed|wrote|composed|painted) (?!(the|our|this|that|these|those|my|your|it|them)\b)"
     # (no one invents the migration guide: "who invented the shipping container", 二维码是谁发明的)
     r"|^\s*who (first )?(invented|discovered) (?!(our|this|that|these|those|my|your|it|them)\b)"),
    (("谁",), r"^(?!.*(我们|咱们|本项目|这个项目|项目里|我的|你的))[^。？?]{1,20}?(是谁发明的|是谁发现的|是谁首先提出的|由谁发明|最早是谁(发明|提出)的)"),
    # how to start learning a field or a tool ("how do I get started with EDIFACT", PLC 编程怎么入门); not our codebase
    (("started", "learn", "get into"),
     r"^(?!.*\b(we|our|us|ours|my|this|the (project|team|repo|codebase|code base|app|service))\b)\s*how (do|can|should|would) (i|you|one|someone|a beginner|beginners) "
     r"(get started (with|in|on)|start learning|begin learning|learn|get into)\b"),
    (("入门",), r"^(?!.*(我们|咱们|本项目|这个项目|项目里|代码库|仓库))[^。？?]{1,20}?(怎么|如何|怎样|该怎么)入门"),
    # how a person comes to hold a trade or a title ("how do I become a vet nurse", 怎么成为一名数据分析师); not a role of ours
    # ("how do I become a maintainer of this repo", 怎么成为我们的讲师)
    (("become", "成为", "当上"),
     r"^(?!.*\b(we|our|us|ours|this|the (project|team|repo|codebase|company|org|organisation|organization))\b)\s*how (do|can|does|should|would|to) "
     r"((i|you|one|someone|a person|people) )?become (a|an)\b"
     r"|^(?!.*(我们|咱们|本项目|这个项目|项目里|公司|团队|平台))\s*(请问)?(我)?(怎么|如何|怎样|该怎么|怎样才能|怎么才能|如何才能)(成为|当上|当)(一名|一个|一位)?"),
    # (怎么学习 uni-app, Rust 该怎么学: the tool's, not how to learn our code)
    (("学",), r"^(?!.*(我们|咱们|本项目|这个项目|项目里|代码库|仓库|代码))\s*(请问)?(怎么|如何|怎样|该怎么|应该怎么)(学|学习|自学)\s*[a-z0-9\u4e00-\u9fff]"
              r"|^(?!.*(我们|咱们|本项目|这个项目|项目里|代码库|仓库|代码))[^。？?]{1,20}?(怎么|如何|怎样|该怎么|应该怎么)(学|学习|自学)\s*[?？]?\s*$"),
    # what a tool's new version brings (Spring Boot 3 有哪些新特性, "what's new in Postgres 16"); not what our app's release brings
    (("新特性", "新功能", "新变化", "what's new", "whats new", "what is new", "new features", "main changes", "what features"),
     r"^(?!.*(我们|咱们|本项目|这个项目|项目里|我们的|咱们的|这个|这次|本次|这版|这一版))[^。？?]{1,30}?(有|有了|新增了?|带来了?)(哪些|什么|啥)(新特性|新功能|新变化|新东西|变化|改进)"
     r"|^(?!.*\b(we|our|us|ours)\b)\s*(what('s| is| are)|whats) (new|the new features|the main changes) in (?!(the (app|project|repo|service|product|release)|this|that|our)\b)"
     r"|^(?!.*\b(we|our|us|ours)\b)\s*what (new )?features (does|did|will) (?!(the (app|project|repo|service|product)|this|our)\b)[\w .+#-]{1,30} (have|add|bring|ship|include)\b"),
    # a word's name in another language (优惠券的英文怎么说, "how do you say invoice in Chinese"): the language's, unless a note
    # names it (`_SPEAKS_OF_TERMS`)
    (("英文", "英语", "中文", "日文", "日语", "in english", "in chinese", "in mandarin", "in japanese"),
     r"^[^。？?]{1,20}?的?(英文|英语|中文|日文|日语|法语|德语)(名字)?(怎么说|是什么|叫什么|怎么讲|怎么写)|用(英文|英语|中文|日语)怎么(说|讲|写)"
     r"|^\s*how (do you|do i|would you|to) say [^?]{1,30} in (english|chinese|mandarin|japanese|french|german|spanish)\b"
     r"|^\s*what('s| is) (the word for )?[^?]{1,30} in (english|chinese|mandarin|japanese|french|german|spanish)\s*[?.]?\s*$"),
    # where a thing of the world comes from (发票的历史是什么, "what is the history of invoices"); not the history of ours
    (("历史", "起源", "由来", "history of", "origin of", "origins of"),
     r"^(?!.*(我们|咱们|本项目|这个项目|项目里|我们的|公司|这个|这张|这些))[^。？?]{1,20}?的(历史|起源|由来|发展史)(是什么|是怎样的|是怎么样的)?\s*[?？]?\s*$"
     r"|^\s*(what('s| is| are)|tell me) (about )?the (history|origins?) of (?!(the|our|this|that|these|my|your)\b)"),
    (("what time is it",), r"^\s*what time is it\b"),
    (("world", "globally", "on earth"), r"^(?!.*\b(we|our|us)\b).*(\b(in|of) the world\b|\bthe world'?s\b|\b(worldwide|globally|on earth)\b)"),
    # (a place's, not our things': "what time zone are DAG schedules in" asks the project)
    (("time zone", "timezone"),
     r"^\s*what time ?zone (is|are) (?!(the|our|this|my|we|us|it)\b)(?!(\w+ )?(schedules?|jobs?|crons?|timestamps?|logs?|servers?|dags?|builds?|"
     r"reports?|alerts?|backups?|deploys?|releases?|events?|databases?|dbs?|records?|data|dashboards?|metrics?|tasks?|meetings?|standups?|slots?|dates?|times?) in)"
     r"\w+( \w+)? in\s*\??$"),
    (("how does a", "how do a", "how did a"), r"^\s*how (does|do|did) (a|an) \w+( \w+)? (work|store|handle|compute|know)\b"),
    (("how many",),
     r"^\s*how many (days|weeks|months|hours|minutes|years) (until|till|are in|in a|are there in)\b"
     r"|^\s*how many (people|inhabitants|residents) (live|are there|reside) in\b"
     # how many people anywhere use a thing ("how many people use Chrome"); "how many users do we have" is ours
     r"|^(?!.*\b(we|our|us)\b)\s*how many (people|users|developers|companies|websites|sites|merchants|customers|stores|shops|businesses) (use|used|are using|run|have)\b"
     # how many of a thing the world makes in a day ("how many videos are uploaded to YouTube every day")
     r"|^(?!.*\b(we|our|us)\b)\s*how many \w+( \w+)? ((are|get|gets|is|were) )?\w+ (to|on|in|by|from|at) (?!(the|our|this|that|my|your)\b)[\w.]+( \w+)? (every|each|per|a) (second|minute|hour|day|week|month|year)\b"),
    (("population",), r"^\s*what is the population of\b"),
    # how many of a thing a country or the world has (美国有多少亚马逊卖家, 全球有多少开发者); 仓库有多少库存 is ours
    (("有多少",), r"^\s*(全球|全世界|世界上|全国|中国|美国|日本|韩国|德国|英国|法国|欧洲|亚洲|印度)(一共|总共|大概|大约)?有多少"),
    # when a thing not ours came out, and its latest version ("what year was FastAPI released")
    (("what year", "when"),
     r"^\s*(what year|when) (was|were|did) (?!(the|our|this|that|we|my|your|it|they|v\d)\b)[\w.+#-]+( [\w.+#-]+){0,2} "
     r"(first )?(released|founded|created|invented|launched|introduced|announced|deprecated|born|come out|came out|ship|shipped)\b"),
    (("version", "release"), r"^\s*(what('s| is)|whats) the (latest|newest|current|most recent) (version|release) of (?!(the|our|this|that|my|your)\b)"),
    # what a language's own element does ("what does the HTML dialog element do", "what does the python zip function do")
    (("what do",),
     rf"^\s*what (does|do) (the |a |an )?({_LANGUAGES}|html|dom|posix|linux|git|bash|regex) [\w.<>-]+ "
     r"(element|tag|attribute|function|method|hook|keyword|operator|property|directive|decorator|macro|builtin|built-in|command|flag) do\b"),
    # what a release of something not ours brought ("what's new in iOS 18"); "what's new in this release" is ours
    (("new in", "changed in"), r"^\s*(what('s| is| are)|whats) (new|changed) in (?!(the|this|our|my|your|we)\b)"),
    (("how",), rf"^\s*(how (do|can|should) (i|you|we)|how to) \w+ ((a|an|the|this|my|two) )?\w+( \w+)? in {_LANGUAGES}\s*\??$"),
    # a name or a title thought up, asked in Chinese (给新的数据平台起个名字, 想一个好听的标题)
    (("名字", "标题", "名称"), r"(起|取|想)(一)?(个|几个)(好听的|好的|合适的|新的)?(名字|标题|名称)"),
    # two named things weighed in Chinese ("Redis 和 Memcached 哪个好", "Vue 还是 React 更适合"), not ours
    (("和", "与", "跟", "还是", "vs", "对比"),
     r"^(?!.*(我们|咱们|本项目))\s*[a-z][\w.+#-]*( [a-z][\w.+#-]*)?\s*(和|与|跟|还是|vs\.?|对比)\s*[a-z][\w.+#-]*( [a-z][\w.+#-]*)?\s*"
     r"((哪个|哪一个|谁)?(更)?(好|快|强|适合|合适|稳定|流行|值得用|好用|便宜|划算|安全)|(有)?(什么|啥|哪些)?(区别|不同|差别|差异)|的(区别|差别|差异|不同))"),
    # how to do a thing in a language or framework, asked in Chinese ("Spring Boot 怎么读取 yml 配置", "Vue 3 的 setup
    # 语法糖怎么用"); "我们的 Vue 路由怎么配置的" asks what the project did
    (("怎么", "如何"),
     rf"^(?!.*(我们|咱们|本项目|项目里|项目中))\s*(在|用)?\s*{_LANGUAGES}( \d+)?\s*(里|中|里面|的)?\s*[^。？?，,]{{0,16}}(怎么|如何)"
     r"(用|使用|写|实现|读取|读|定义|声明|遍历|调用|判断|转换|处理|创建|发送|发|连接|解析|生成|分页|排序|加密|上传|下载|导出|导入)(?!.*的\s*[?？]?\s*$)"),
)


# A name written as code (eta_initial, order_state) is the project's own: "what is the difference between
# eta_initial and eta_current" asks what the project means by its fields, not what anyone could answer.
_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9]\b")


# A message that opens with "this" as its subject reports on the thing at hand ("this CSS grid works on
# my Mac but looks broken on Windows"): a symptom the project's notes may explain, not work to do.
_REPORT = re.compile(r"^\s*(this|these)( [\w.+#-]+){1,3} (is|are|was|were|works?|worked|looks?|looked|breaks?|broke|fails?|failed|"
                     r"crash(es|ed)?|keeps?|takes?|took|throws?|threw|returns?|shows?|showed|doesn't|does not|don't|do not|won't|can't|"
                     r"isn't|aren't|wasn't|weren't|hangs?|freezes?|froze|stopped|stops|started|starts|"
                     # (what a change does: "this PR makes hashing 15% slower", "this commit adds a dependency")
                     r"makes|made|adds|added|removes|removed|changes|changed|uses|used|needs|needed|slows|slowed|raises|raised|drops|dropped|"
                     r"bumps|bumped|introduces|introduced|has|had)\b"
                     # ... as does one that says what the asker meets ("I get an error that an item with this id already exists")
                     r"|^\s*(i|we)('m| am| are|'re)? (get|getting|got|see|seeing|saw|hit|hitting|keep getting|keep seeing|ran into|run into|am getting)\b"
                     # ... said without its subject, as people type ("getting this in the worker logs: …")
                     r"|^\s*(getting|seeing|hitting|got|keep getting|keep seeing|still getting|still seeing) (this|these|that|an?|the)\b"
                     # ... or what no one manages ("nobody has been able to reproduce this bug for two months", "I can't get this to build")
                     r"|^\s*(nobody|no one|no-one|i|we|they|users?|customers?)( (has|have|had))?( (been|was|were|is|are|am))? (able|unable|not able) to\b"
                     r"|^\s*(nobody|no one|no-one|i|we|they) (can't|cannot|couldn't|could not|can not)\b"
                     # ... and in Chinese ("报这个错：…", 运行的时候出现这个异常, 遇到这个问题)
                     r"|^[^。？?\n]{0,12}(报|出现|出|遇到|碰到|有|抛)(了)?(这个|这种|这些|下面的?|如下的?)(错|错误|异常|报错|问题|警告)")


# What a person says before the question ("hey, quick question: what is OCPP", "do you know where the logs go",
# "I want to know how long claim files are kept", 请问…, 我想知道…) is no part of it: read as terms it lowered every
# note's share of the message and passed the question by the rules that read a message from its start
# (held-out sets with such openings added: about a tenth of no-answer prompts lost their quiet). A request
# to act ("can you", "please") is kept: it is what the rule look reads.
_OPENING_SOURCE = (  # (matched at a position, so no "^")
    r"\s*(?:(?:hey|hi|hello|ok|okay|yo|well|oh|alright|sorry|thanks|thank you)\s*[,:!.]+\s*|(?:hey|hi)\s+(?=[a-z])|(?:so|also|btw|by the way|um|uh)\b[\s,:!.]+"
    r"|(?:quick|one|another|a|random|dumb|silly|simple|small|short)? ?(?:question|q)\s*[:\-,]\s*"
    r"|(?:i have|i've got|got) a (?:quick )?question(?: for you)?\s*[:\-,]?\s*"
    r"|(?:(?:can|could|would) you |please )?(?:tell me|let me know|remind me)(?: again)?\b\s*[,:]?\s*(?=(?:why|how|what|where|when|who|whose|which|if|whether)\b)"
    r"|(?:do|does) (?:you|anyone|anybody) (?:know|remember)(?: if| whether)?\s+"
    r"|(?:i|we) (?:want|need|would like|'d like) to (?:know|understand|find out)(?: if| whether)?\s+"
    r"|(?:i|we)(?:'m| am| was| were)? (?:wonder|wondering|curious)(?: about| if| whether)?\s+"
    r"|(?:i|we)(?:'m| am| are|'re) trying to (?:figure out|understand|work out|find out)(?: if| whether)?\s+"
    r"|(?:any|got an?|have an?) ideas?(?: on| about)?\s*[,:]?\s*(?=(?:why|how|what|where|when|who|which|if|whether)\b)(?:if |whether )?"
    r"|(?:real quick|quickly)\b[\s,:]+)")
# The words an opening starts with: `_OPENING_SOURCE` is compiled (a millisecond) only for a message that
# starts with one, in a hook process that reads one message.
_OPENING_FIRST = frozenset("hey hi hello ok okay yo well oh alright sorry thanks thank so also btw by um uh quick one another a random dumb "
                           "silly simple small short question q i i've we got can could would please tell let remind do does any have "
                           "real quickly".split())


@lru_cache(maxsize=1)
def _opening() -> re.Pattern[str]:
    return re.compile(_OPENING_SOURCE)


# (Chinese openings by `str.startswith`: a character class of Chinese punctuation took the compiler a millisecond.)
_OPENING_ZH = ("你好", "您好", "嗨", "哈喽", "请问", "想问一下", "我想问一下", "问一下", "我想知道", "你知道", "麻烦问一下", "请教一下")
_OPENING_ZH_PUNCT = "，,！!。：: "


# ... and what is said after it ("…, please", "… thanks!"): the rules that read a message to its end stop there.
_CLOSING = re.compile(r"[\s,;.!?]*\b(?:thanks(?: a lot| in advance)?|thank you(?: so much)?|thx|ty|please|pls|plz|cheers|"
                      r"let me know(?: what you think| your thoughts| if you have (?:any )?ideas)?|what do you think|any (?:ideas|thoughts|suggestions)|thoughts)\b"
                      r"[\s.!?:)]*$|(?<=\?)[\s?!]+$")


def without_opening(message: str) -> str:
    """The message without what is said before and after the question; the message itself when nothing is left.
    (Matched on the lowercase text, cut from the text as written: a case-blind pattern cost the hook's start a
    millisecond to compile.)"""
    low = message.lower()
    if len(low) != len(message):
        return message
    start = 0
    for _ in range(3):
        first = low[start:start + 16].lstrip().split(" ", 1)[0].strip(",:!.?")
        m = _opening().match(low, start) if first in _OPENING_FIRST else None
        if m is not None and m.end() > start:
            start = m.end()
            continue
        zh = next((w for w in _OPENING_ZH if low.startswith(w, start)), None) if not low.isascii() else None
        if zh is None:
            break
        start += len(zh)
        while start < len(low) and low[start] in _OPENING_ZH_PUNCT:
            start += 1
    end = _CLOSING.search(low, start)
    rest = message[start:end.start() if end else len(message)]
    return rest if rest.strip() else message


# What people type in a hurry ("can u publish the roster", "how r swaps approved", "is it ok tmrw"), spelled out
# so the rules that read a request, a question or a time read it as they read the words. "r" is "are" only beside
# a question word or a pronoun: alone it may be the language.
_SHORTHAND = {"u": "you", "ur": "your", "pls": "please", "plz": "please", "tmrw": "tomorrow", "tmr": "tomorrow", "b4": "before",
              "ppl": "people", "msg": "message", "msgs": "messages", "w/": "with", "w/o": "without", "dont": "don't",
              "doesnt": "doesn't", "isnt": "isn't", "cant": "can't", "wont": "won't", "didnt": "didn't", "shouldnt": "shouldn't"}
# (U 盘 is a USB stick, no "you")
_SHORT_WORD = (r"(?<![\w'/-])(?P<w>u(?!\s*盘)|ur|pls|plz|tmrw|tmr|b4|ppl|msgs?|w/o|w/|dont|doesnt|isnt|cant|wont|didnt|shouldnt)(?![\w/-])"
               r"|\b(?P<q>how|what|where|when|which|why|who) r(?= )|(?<![\w'/-])r(?= (you|we|they|there|these|those|the|our)\b)")


def spelled_out(message: str) -> str:
    """The message with its chat shorthand spelled out (`_SHORTHAND`); unchanged when it has none (the
    pattern is compiled only for a message that has some)."""
    low = message.lower()
    words = set(re.split(r"[^\w/]+", low))
    if len(low) != len(message) or (_SHORTHAND.keys().isdisjoint(words) and "r" not in words):
        return message

    def spelled(m: re.Match[str]) -> str:
        if m.group("w"):
            return _SHORTHAND[m.group("w").lower()]
        return f"{m.group('q')} are" if m.group("q") else "are"

    return re.sub(_SHORT_WORD, spelled, message, flags=re.IGNORECASE)


def _note_text(record: dict) -> str:  # type: ignore[type-arg]
    """A note's words as the readings below look at them: title, summary and body."""
    return " ".join(str(record.get(f, "")) for f in ("title", "summary", "body"))


# A question whose form asks for a time or an amount ("when do rosters get published", "how long is a quote
# valid", "what's the max pairing length", 多久, 几点) is answered by a note that states one: among notes that
# hold its words alike, one with a number, a day or a period comes first (recall's ANSWER_BONUS).
# (Patterns, not compiled ones: `re` compiles each on its first use, in a hook process that reads one message.)
_ASKS_AMOUNT = (r"^\s*(when|what time(?! ?zones?\b)|what day|which day|by when|until when|till when|"
                r"how (long|often|soon|many|much|frequently|fast|big|large|old|far|early|late))\b"
                r"|^\s*((what('s| is| are)|whats) the )?(max|maximum|min|minimum|limit|deadline|cut-?off|timeout|ttl)\b"
                r"|多久|多长时间|多少|几点|什么时候|几天|几个|几次|哪天|何时")
_AMOUNT_FIRST = frozenset("when what which by until till how max maximum min minimum limit deadline cutoff cut-off timeout ttl".split())
_STATES_AMOUNT = (r"\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|hundred|"
                  r"once|twice|daily|weekly|monthly|nightly|hourly|yearly|annually|quarterly|every|each|noon|midnight|"
                  r"mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekends?|"
                  r"january|february|march|april|may|june|july|august|september|october|november|december)\b"
                  r"|[一二三四五六七八九十百千万两]|每")


def asks_amount(message: str) -> bool:
    """Whether the question's form asks for a time or an amount (`_ASKS_AMOUNT`)."""
    low = _asked(message.lower())
    words = low.split(maxsplit=1)
    if (not words or words[0].strip("'s") not in _AMOUNT_FIRST) and low.isascii():
        return False  # (most messages open with no such word: the pattern is not compiled for them)
    return re.search(_ASKS_AMOUNT, low) is not None


def states_amount(record: dict) -> bool:  # type: ignore[type-arg]
    """Whether a note states a number, a day or a period (`_STATES_AMOUNT`)."""
    return re.search(_STATES_AMOUNT, _note_text(record).lower()) is not None


# A question for how far, how much, how long, how big or how often a thing goes ("how far do we deliver", "how much is
# delivery") is answered by the note on its subject that states a distance, a price, a duration, a size or a frequency,
# though no note holds the measure's word: "far" and "much" are the question's form, not its subject, and the subject
# alone ("deliver") is too common a word to bring a card by itself. The measure's word as the index holds it, and what
# a note states of it.
_MEASURES = {
    "far": r"\d\s?(km|kilomet\w*|mi|miles?|m|met(er|re)s?|ft|feet|yards?|blocks?)\b|公里|千米|英里|\d\s?米",
    "long": (r"\d\s?(s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|ms)\b|"
             r"\b(an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|forty|sixty|ninety) "
             r"(seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b|\b(\w+-(second|minute|hour|day|week|month|year))\b"
             r"|[\d一二两三四五六七八九十百半]\s?(个)?(秒|分钟|小时|钟头|天|周|星期|月|年)"),
    "big": r"\d\s?(b|kb|mb|gb|tb|kib|mib|gib|tib|px|cm|mm|inch(es)?|rows|users|items)\b",
    "often": r"\b(daily|weekly|monthly|nightly|hourly|yearly|annually|quarterly|every|each|once|twice|times a|per (day|week|month|hour|year))\b",
}
# A count is one of the thing asked of, said just before its name ("there are three squads: …", "目前有 86 家门店"): a note on
# stores that gives the hour its report is sent states no count of stores.
# (a number, not "several EU countries": a note that says some are is no count of them)
_COUNT = (r"(\d[\d,.]*|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty)\b"
          r"|[一二两三四五六七八九十百千万]+)\s*(家|个|位|名|台|种|条|座|所|款|辆|间|支|套)?\s*"
          r"([\w'-]+\s+){0,2}?")
_ASKS_MEASURE = r"^\s*how (?P<m>far|much|long|big|large|often|many)\b(?! (does|do|did|will|would|is|are|was) [^?]{0,40}\b(cost|costs|charge|pay)\b)"
# (in Chinese the measure's words are the question's seams, which the index counts in no note's share: 送货费多少钱)
_MEASURE_ZH = {"多远": "far", "多少钱": "much", "费多少": "much", "多久": "long", "多长时间": "long", "多大": "big",
               # how many of a thing, by its measure word (现在有多少家门店, 有几组快递柜)
               **{f"{q}{m}": "many" for q in ("多少", "几") for m in "家个位名台种条座所款辆间支套组"}}
_MEASURE_OF = {"large": "big", **_MEASURE_ZH}
# What a Chinese count question says around the count, not of the thing counted: 一共有多少家门店 asks of 门店.
_COUNT_FRAME_ZH = ("一共", "总共", "现在", "目前", "我们", "咱们", "你们", "公司", "大概", "大约", "到底", "究竟", "全部", "总计",
                   "有", "是", "的", "了", "吗", "呢", "还", "都", "共", "？", "?", "，", ",", " ")


def measure_kind(measure: str) -> str:
    """What `asks_measure`'s word asks for: "far", "much", "long", "big", "often" or "many"."""
    return _MEASURE_OF.get(measure, measure)


def note_words(record: dict) -> str:  # type: ignore[type-arg]
    """A note's title, summary and body, lowercased, as the measure readings look at them."""
    return _note_text(record).lower()


def counted_parts(message: str, measure: str) -> list[str] | None:
    """For a Chinese count question (`_MEASURE_ZH`'s "many"), the text around the count, less its frame: 全市有多少组快递柜
    is about 全市 and 快递柜; a note answers only if it holds each (星巴克有多少家门店 names a thing no note holds)."""
    if _MEASURE_OF.get(measure) != "many" or measure.isascii() or measure not in message:
        return None
    parts = []
    for part in message.split(measure):
        part = part.strip()
        changed = True
        while changed and part:
            changed = False
            for frame in _COUNT_FRAME_ZH:
                if part.startswith(frame) or part.endswith(frame):
                    part = part[len(frame):] if part.startswith(frame) else part[: -len(frame)]
                    changed = True
        if part:
            parts.append(part)
    return parts or None


# "How many marketplaces are there" asks how many of a thing exist: a note that names the thing and counts nothing of it (the
# stack note "the marketplace is a Laravel app") does not answer, whatever else it shares.
_ASKS_EXISTING = r"^\s*how many [\w' -]{2,40}? (are there|exist|there are)\b"


def asks_how_many_exist(message: str) -> bool:
    """Whether the question asks how many of a thing there are (`_ASKS_EXISTING`)."""
    low = message.lower()
    return "how many" in low and re.match(_ASKS_EXISTING, _asked(low)) is not None


def asks_measure(message: str) -> str | None:
    """The word of the measure a question asks of its subject ("far", "多远" …), or None."""
    low = _asked(message.lower())
    if not low.isascii():
        zh = next((w for w in _MEASURE_ZH if w in low), None)
        if zh is not None:
            return zh  # (an English question with a curly quote or a dash is still read below)
    if not low.lstrip().startswith("how "):
        return None
    m = re.match(_ASKS_MEASURE, low)
    return None if m is None else m.group("m")


def states_measure(record: dict, measure: str, held: list[str] | tuple[str, ...] = ()) -> bool:  # type: ignore[type-arg]
    """Whether a note states the measure `asks_measure` found (a distance for "far", a price for "much" …; for "many", a
    count of what it holds of the question, `held` as the index names them: "store" or "store→门店 (dictionary)")."""
    kind = _MEASURE_OF.get(measure, measure)
    if kind == "much":
        return states_price(record)
    text = _note_text(record).lower()
    if kind == "many":
        forms = {term.split("→")[-1].split(" (")[0] for term in held} if measure.isascii() else set(held)
        return any(re.search(_COUNT + re.escape(form), text) for form in forms if form)
    return re.search(_MEASURES[kind], text) is not None


# A question for who does something ("who can approve payroll runs", 谁负责发版) is answered by the note that
# names the one who does it ("payroll admin is the only one who approves runs", "approved by the payroll
# admin"), not by every note on the act.
# (patterns as text, compiled by `re` on first use: the recall hook imports this module on every prompt)
_ASKS_WHO = r"^\s*(who|whom|whose|which (person|people|team|teams|role|roles|group|department|one of us))\b|谁|哪个(人|团队|部门|角色)|哪位"
_STATES_WHO = (r"\b(only (the )?[\w -]{1,30}? (can|may|is allowed to|are allowed to|approves?|decides?|signs?)|the only (one|ones|person|people|role)|"
               r"(approved|owned|run|decided|signed off|reviewed|maintained|handled|done) by|responsible for|in charge of|owns?|owners?)\b"
               r"|负责|只有[^。，,]{1,10}(能|可以|才)|由[^。，,]{1,10}(审批|批准|负责|维护|决定|处理)")


# "Why did we pick Kafka", 为什么选 Kafka: a question about a choice the team made, answered by the note that holds what was
# chosen and gives the reason ("Kafka replaced RabbitMQ for domain events because we need replay"), whatever the learned
# reading makes of so short a question (held-out 105's 为什么选 Kafka read 0.49 of general once sets 280-283 were learnt). Not
# why the world chooses it ("why do companies use Kafka", 为什么大家都用 Kafka: `_GENERAL`).
_ASKS_WHY_CHOSEN = (r"^\s*why (did|do|have) (we|you|the team|our team) (choose|chose|chosen|pick|picked|use|used|go with|went with|switch to|"
                    r"switched to|move to|moved to|adopt|adopted)\b"
                    r"|^(?!.*(大家|很多|多数|大多数|别人|人们|别的|其他))\s*(我们|咱们|团队)?(当初|当时)?为(什么|啥)(我们|咱们)?(要|当初|当时|会)?(选|选择|选用|采用|改用|换成|换用)")
_STATES_REASON = r"\b(because|since|so that|in order to|the reason|for the sake of)\b|因为|由于|为了|原因是|是因为"


def asks_why_chosen(message: str) -> bool:
    """Whether the question asks why the team chose something (`_ASKS_WHY_CHOSEN`)."""
    low = message.lower()
    return ("why" in low or "为" in low) and re.search(_ASKS_WHY_CHOSEN, _asked(low)) is not None


def states_reason(record: dict) -> bool:  # type: ignore[type-arg]
    """Whether a note gives a reason (`_STATES_REASON`)."""
    return re.search(_STATES_REASON, _note_text(record).lower()) is not None


def asks_who(message: str) -> bool:
    """Whether the question's form asks who does something (`_ASKS_WHO`)."""
    low = _asked(message.lower())
    if low.isascii() and not low.lstrip().startswith(("who", "which")):
        return False  # (most messages: the pattern is not compiled for them)
    return re.search(_ASKS_WHO, low) is not None


def states_who(record: dict) -> bool:  # type: ignore[type-arg]
    """Whether a note names the one who does something (`_STATES_WHO`)."""
    return re.search(_STATES_WHO, _note_text(record).lower()) is not None


# A question for the version of a thing ("what ROS version do we use", "which version of Postgres", Node 用的什么版本)
# is answered by the note that gives the thing with its version ("C++17 on ROS 2 Humble", "PostgreSQL 15"), not by the
# note that says how versions are tagged.
_ASKS_VERSION = (r"\b(?:what|which)\s+(?:(?:is|are)\s+(?:the|our)\s+)?(?P<a>[a-z][\w.+#-]*)\s+versions?\b|\bversions?\s+of\s+(?P<b>[a-z][\w.+#-]*)"
                 r"|(?P<c>[a-z][\w.+#-]*)\s*(?:用的|用|是)?\s*(?:什么|哪个|哪一个|几)\s*版本|(?:什么|哪个)版本的\s*(?P<d>[a-z][\w.+#-]*)")


def asks_version(message: str) -> str | None:
    """The thing whose version the question asks for (`_ASKS_VERSION`), or None."""
    low = message.lower()
    if "version" not in low and "版本" not in low:
        return None  # (most messages: the pattern is not compiled for them)
    m = re.search(_ASKS_VERSION, low)
    thing = None if m is None else next(g for g in m.groups() if g)
    return None if thing in _NOT_A_THING else thing


_NOT_A_THING = frozenset("the a an our this that your their its my which what new old latest current".split())


def states_version(record: dict, thing: str) -> bool:  # type: ignore[type-arg]
    """Whether a note gives `thing` with a version number after it ("ROS 2 Humble", "PostgreSQL 15", "Node v20")."""
    # (a number glued to the name is part of a command's or a file's name as often: "ros2 launch", "python3 -m")
    return re.search(rf"(?<![\w.+#-]){re.escape(thing)}(?: version)?(?: is| =|:)?[ -]v?\d+(?:\.\d+)*\b", _note_text(record), re.IGNORECASE) is not None


# A polite opening asks nothing by itself ("can you suggest a name for our app" asks what "suggest a name for
# our app" asks): the forms below that read a message from its start read it without one.
_POLITE = re.compile(r"^\s*(please\s+|(can|could|would|will) you\s+(please\s+)?|(i need|i want|i'd like) you to\s+|help me\s+)")


def _unprefixed(low: str) -> str:
    return _POLITE.sub("", low, count=1)


# A sentence that first says where the person is ("I'm in the middle of a refactor. What is OCPP?") leaves the
# question to the sentences after it: the rules that read a message from its start read those. (Search still
# reads the whole message: such a sentence often names the topic, "I'm seeing 502s from the payments API.")
_SITUATION = re.compile(r"^\s*(i'm|i am|i've been|i have been|we're|we are|we've been|currently|right now|at the moment|"
                        r"i'm currently|i just|we just)\b[^.!?\n]{0,120}[.!]\s+(?=\S)")


def _asked(low: str) -> str:
    """`low` without a leading sentence that says where the person is."""
    m = _SITUATION.match(low)
    return low[m.end():] if m else low


def _in_question(low: str, at: int) -> bool:
    """Whether the clause holding `at` is a question ("Honeybadger keeps emailing about it, does this
    wake someone up?"): it asks what the project knows of the thing, as a question that opens the
    message does."""
    # (a dash between spaces ends a clause too: "Logger.info(…) - is this ok to ship?")
    start = max([low.rfind(c, 0, at) + 1 for c in ",.;:!?\n"] + [low.rfind(d, 0, at) + 2 for d in (" - ", " – ", " — ") if d in low[:at]])
    # (in Chinese, a message of one line that ends asking 吗 or 呢 asks of the thing it names: "这个 flag 一年前加的，还留着吗")
    if _QUESTION.match(low[start:]) or ("\n" not in low and re.search(r"[吗呢]\s*[?？]?\s*$", low) is not None):
        return True
    # ... and a Chinese clause that asks why, how or which of it ("用户点了不喜欢，为什么还在推这个作者")
    if low.isascii():
        return False
    begin = max(low.rfind(c, 0, at) for c in "，。；：！？,.;:!?\n") + 1
    ends = [e for e in (low.find(c, at) for c in "，。；：！？,.;:!?\n") if e >= 0]
    return re.search(r"为什么|为啥|怎么|什么|哪|多少|是否|能不能|可不可以|有没有|会不会|是不是", low[begin : min(ends, default=len(low))]) is not None


def asks_what_anyone_knows(message: str) -> bool:
    """Whether the rules read the message as a question anyone could answer (`_GENERAL`)."""
    low = _asked(message.lower())
    asked = _unprefixed(low)
    return (any(re.search(source, asked) for words, source in _GENERAL if any(w in asked for w in words))
            and not _IDENTIFIER.search(low))


# A question anyone could answer that asks how many, or asks for a name, is answered only by a note that
# states a number or speaks of names: one that merely names the thing counted or to be named says nothing
# of it (中国有多少家互联网医院 and the note on what an internet hospital may do; 给我们的新功能起个名字 and the
# note on how new features roll out). Patterns as text, compiled by `re` on first use.
_ASKS_NAME = r"\b(names?|titles?) for\b|(起|取|想)(一)?(个|几个)?[^。？?，,]{0,6}(名字|名称|标题)"
_SPEAKS_OF_NAMES = r"\b(names?|naming|named|titles?|called|brand\w*)\b|名字|命名|名称|叫做|标题|品牌"
# ... and one that asks for something to read, hear or watch is answered only by a note that speaks of one
# (推荐一本讲推荐系统的书 and the note on what the recommender is built with).
_ASKS_READING = (r"\b(recommend|suggest)\w* (me )?(a |an |some |any )?(good |great )?(books?|podcasts?|courses?|tutorials?|videos?|blogs?|talks?|articles?|papers?)\b"
                 r"|\b(a|an|some|any) (good|great|nice|decent|solid) (books?|podcasts?|courses?|tutorials?|videos?|blogs?|talks?|articles?|papers?)\b"
                 r"|推荐(一|几)?(本|个|些|篇|门|部)[^。？?，,]{0,16}(书|书籍|教程|课程|文章|论文|视频|播客|博客)")
# ... and one that asks how to start learning a field or a tool (PLC 编程怎么入门, "what's the best way to learn DICOM") only by a note
# that speaks of learning it (the stack note names Spring Cloud and says nothing of how one learns it).
_ASKS_LEARNING = (r"\b(get(ting)? started (with|in|on)|start(ing)? learning|begin(ning)? learning|learn(ing)?|get into)\b|入门|(学习|学)[^。？?，,]{0,6}(方法|路线|顺序)|从哪(里)?(开始)?学"
                  r"|(怎么|如何|怎样)(学|学习|自学)")
_SPEAKS_OF_LEARNING = (r"\b(learn\w*|onboard\w*|tutorials?|courses?|docs|documentation|guides?|handbook|training|wiki|books?|workshops?|mentor\w*)\b"
                       r"|入门|学习|教程|培训|文档|手册|课程|新人|上手")
# ... and one for a word's name in another language only by a note that speaks of names or languages (优惠券的英文怎么说 and the
# note on how long coupons last), one for where a thing comes from only by a note that tells a past, one for what a version
# brings only by a note that speaks of what is new (Spring Boot 3 有哪些新特性 and the stack note that names Spring Boot).
_ASKS_TERM = (r"(英文|英语|中文|日文|日语|法语|德语)(名字)?(怎么说|是什么|叫什么|怎么讲|怎么写)|用(英文|英语|中文|日语)怎么(说|讲|写)"
              r"|\b(say|word for) [^?]{1,30} in (english|chinese|mandarin|japanese|french|german|spanish)\b|\bin (english|chinese|mandarin|japanese|french|german|spanish)\s*[?.]?\s*$")
_SPEAKS_OF_TERMS = (r"\b(called|calls?|term|terms|glossary|translat\w*|english|chinese|mandarin|japanese|spelled|spelling|naming|named)\b"
                    r"|叫|称为|称作|术语|英文|英语|中文|翻译|译为|译成|名称|命名")
_ASKS_NEWS = r"新特性|新功能|新变化|新东西|\bwhat('s| is|s) new in\b|\bnew features\b|\bmain changes\b"
_SPEAKS_OF_NEWS = r"\b(new|features?|changes?|changelog|release notes|upgrad\w*|migrat\w*)\b|新特性|新功能|升级|变化|更新|迁移|改动"
_ASKS_HISTORY = r"的(历史|起源|由来|发展史)|\b(history|origins?) of\b"
_STATES_HISTORY = (r"\b(1[5-9]|20)\d\d\b|\b(since|years ago|used to|originally|history|historically|origins?|invented|introduced)\b"
                   r"|以前|之前|起源|历史|最早|发明|年代|\d+\s*年")
_SPEAKS_OF_READING = (r"\b(books?|reading|podcasts?|courses?|tutorials?|videos?|blogs?|talks?|articles?|papers?|docs|documentation|handbook)\b"
                      r"|书|教程|课程|文章|论文|视频|播客|博客|文档|手册")
# ... and one that asks how a person comes to be of a trade only by a note that speaks of becoming one: hiring,
# training, a qualification (how do I become a vet nurse, and the note on how vet and nurse rotas are made).
_ASKS_BECOMING = r"\bbecome (a|an)\b|(成为|当上)(一名|一个|一位)?"
_SPEAKS_OF_BECOMING = (r"\b(becom\w*|qualif\w*|certif\w*|licen[cs]\w*|degrees?|train\w*|apprentic\w*|hir(e|ed|es|ing)|recruit\w*|"
                       r"appl(y|ies|ied|ication)|join\w*|promot\w*|onboard\w*|exams?|"
                       r"appoint\w*|nominat\w*|elect(ed|ion)?|invit\w*|added to)\b|入职|录用|资格|证书|培训|招聘|晋升|考试|成为|当上")
# What each such question asks for, and what a note that answers it speaks of.
_ANSWERED_BY = ((_ASKS_NAME, _SPEAKS_OF_NAMES), (_ASKS_READING, _SPEAKS_OF_READING), (_ASKS_LEARNING, _SPEAKS_OF_LEARNING),
                (_ASKS_NEWS, _SPEAKS_OF_NEWS), (_ASKS_TERM, _SPEAKS_OF_TERMS), (_ASKS_HISTORY, _STATES_HISTORY),
                (_ASKS_BECOMING, _SPEAKS_OF_BECOMING))


# A question for how to install a thing ("how do I install Elixir on my laptop", 怎么安装 Composer) is answered by a
# note that says how it is installed or fetched, not by one that names the thing among the stack's tools.
# (patterns as text, compiled by `re` on first use and only for a message that holds one of their words: the recall
# hook imports this module on every prompt, and most prompts ask for neither)
_ASKS_INSTALL = r"^\s*(how (do|can|should|would|to) (i |we |you )?(install|set up|setup)\b|([^。？?，,]{1,16}?(上|里|下|中)?)?(怎么|如何|怎样)(安装|装))"
_SPEAKS_OF_INSTALL = (r"\b(install\w*|setup|set up|brew|apt(-get)?|pipx?|npm|yarn|pnpm|cargo|uv|download\w*|appimage|curl|choco|winget|"
                      r"sdkman|sdk|asdf|mise|nvm|rustup|docker pull|package manager|unzip|extract|build from source)\b|安装|下载|装")


def asks_install(message: str) -> bool:
    low = message.lower()
    return any(w in low for w in ("install", "set up", "setup", "装")) and re.search(_ASKS_INSTALL, low) is not None


def speaks_of_install(record: dict) -> bool:  # type: ignore[type-arg]
    return re.search(_SPEAKS_OF_INSTALL, _note_text(record).lower()) is not None


# A question for a price or a fee ("how much does Unity Pro cost", 微信支付的手续费是多少, 试听课要钱吗) is answered by a note
# that states one (an amount of money, a share, "free"), not by the note that names the product among the stack's tools.
_ASKS_PRICE = (r"^\s*how much\b[^?]{0,60}\b(cost|costs|charge|charges|charged|pay|pays|paid|priced|price|fee|fees)\b"
               r"|\b(what|what's|whats|which)\b[^?]{0,20}\b(price|prices|pricing|fee|fees|commission|cost)\b(?! centres?\b| centers?\b| codes?\b)"
               r"|多少钱|(怎么|如何|怎样)收费|收费标准|(手续费|费率|佣金|价格|费用|价钱)(一般)?(是)?(多少|几个点)|要钱吗|收费吗|收不收费|多少费用")
_STATES_PRICE = (r"[$€£¥￥]\s?\d|\d[\d,.]*\s?(k\b|m\b|万|千|亿)?\s?(%|percent|per ?cent|eur\b|euros?\b|usd\b|dollars?\b|gbp\b|pounds?\b|cny\b|rmb\b|yuan\b|"
                 r"cents?\b|chf\b|yen\b|bps\b|basis points?\b|元|块|角|毛|美元|欧元|英镑|日元)"
                 # (a sum in Chinese numerals: 每个席位一年九百元, 两千块)
                 r"|[零一二三四五六七八九十百千万两]+\s?(元|块|美元|欧元|英镑|日元)"
                 # (or speaks of what a thing costs: "every GB read back is billed", "replies cost us per message")
                 # (in Chinese, words of what a thing costs: 续费 and 缴费 say that one renews or pays, 缴费类事项 names no price)
                 r"|\b(costs?|costing|billed|billing|price[sd]?|pricing|fees?|charge[sd]?|paid|pays?|estimates?|free|quotes?|no charge)\b"
                 r"|收费|计费|费率|费用|付费|免费|价格|价钱|单价|报价|定价|售价|原价|多少钱|手续费|服务费|佣金")


_PRICE_WORDS = ("cost", "pric", "fee", "charge", "pay", "paid", "commission", "钱", "费", "价", "佣金")


def asks_price(message: str) -> bool:
    low = message.lower()
    return any(w in low for w in _PRICE_WORDS) and re.search(_ASKS_PRICE, low) is not None


def states_price(record: dict) -> bool:  # type: ignore[type-arg]
    return re.search(_STATES_PRICE, _note_text(record).lower()) is not None


# The words that ask what a thing costs without naming a kind of charge: a commission, a fee or 佣金 asked for alone
# ("what commission do we take") is itself what the note answers.
_COST_WORDS = ("cost", "pric", "charg", "pay", "paid", "钱", "价", "收费", "计费", "费用")


def holds_only_price(held: list[str]) -> bool:
    """Whether the terms a note holds of a price question (`index.Hit.held`) are only its words for what a thing costs:
    the note on the cloud bill holds "cost" of "how much does a NovaSeq X run cost", and nothing of what is priced."""
    return _holds_only(held, _COST_WORDS)


# The words that ask how to install, whatever is installed: the note on installing Elixir holds "install" of 麒麟操作系统怎么
# 安装 JDK, and nothing of what is installed or where.
_INSTALLING = ("install", "装")  # (安装 holds 装)
_INSTALL_WORDS = (*_INSTALLING, "安装", "setup", "set")


def holds_only_install(held: list[str]) -> bool:
    """Whether the terms a note holds of an install question are only its words for installing."""
    return _holds_only(held, _INSTALL_WORDS)


# A note installs what is asked when its word for installing stands near a word of the question's subject: 老师用的平板装的是
# 安卓版 App installs an app, and says nothing of how PHP is installed, though the same note names PHP (held-out 211). Asked
# only of a question that says "install" or 装: one that asks how to set a thing up is answered by a note on how it is
# made ("Python environments are made with mamba …; never pip install into base").
INSTALL_NEAR = 24


def asks_install_word(message: str) -> bool:
    low = message.lower()
    return any(w in low for w in _INSTALLING)


def installs_what_is_asked(record: dict, held: list[str]) -> bool:  # type: ignore[type-arg]
    """Whether a word for installing stands within `INSTALL_NEAR` characters of a term the note holds of an install
    question (`index.Hit.held`; the note's side of a term held across languages), install words aside."""
    text = _note_text(record).lower()
    subjects = [t.split("→")[-1] for t in held if not any(w in t.split("→")[0] for w in _INSTALL_WORDS)]
    at = [m.start() for m in re.finditer(_SPEAKS_OF_INSTALL, text)]
    return any(abs(a - p.start()) <= INSTALL_NEAR for term in subjects for p in re.finditer(re.escape(term), text) for a in at)


def _holds_only(held: list[str], words: tuple[str, ...]) -> bool:
    return all(any(w in term.split("→")[0] for w in words) for term in held)


def what_general_asks(message: str) -> Callable[[dict], bool] | None:  # type: ignore[type-arg]
    """For a question anyone could answer that asks how many, for a name, for something to read, how to start learning,
    what a version brings, a word in another language or a thing's history, the test a note must pass to answer it
    (`states_amount`, or `_ANSWERED_BY`; none passes for a sum); None for any other message."""
    low = message.lower()
    if _SUM.match(low):
        return lambda record: False
    if asks_amount(message):
        return states_amount
    for asks, answer in _ANSWERED_BY:
        if re.search(asks, low):
            return lambda record, answer=answer: re.search(answer, _note_text(record).lower()) is not None
    return None


def asks_for_work(message: str) -> bool:
    """Whether the rules read the message as asking for work on the thing at hand, or what anyone
    could answer: either way, a note fits it only when it holds most of what the message says.
    When they do not, `reads_as_general` is the second opinion (recall asks it only when a verdict
    hangs on it: loading its weights costs about a millisecond)."""
    low = _asked(message.lower())
    return bool((not _QUESTION.match(low) and not _REPORT.match(low) and any(not _in_question(low, m.start()) for m in _AT_HAND.finditer(low)))
                or _TASK.match(low)
                or asks_what_anyone_knows(message))


# Translating, summarising, converting or rewording the text a message gives is work on that text alone:
# of the 140 such prompts in 65 recall sets none is answered by a note, and a note on translations or on
# the thing named ("translate this changelog into Japanese", "summarise this Postgres log") only shared
# its words. A message that speaks of "we" or "our" ("summarise how we deploy") asks the project.
_TRANSFORM = re.compile(r"^\s*(please\s+|(can|could|would|will) you\s+(please\s+)?)?(translate|summari[sz]e|convert|rephrase|reword|paraphrase|"
                        r"proofread|shorten|condense|tl;?dr)\b"
                        # work on the list the message gives or points at ("sort these duties by report time")
                        r"|^\s*(please\s+|(can|could|would|will) you\s+(please\s+)?)?(sort|order|rank|group|dedupe|de-?duplicate|alphabeti[sz]e|"
                        r"reverse|shuffle|count|sum|total) (these|this list|the following|the list below|them)\b|^\s*(请|帮我|麻烦)?(把|将)(这|下面|\s*[\u201c\x22\u300c\u300e'][^\u201d\x22\u300d\u300f'\n]{1,60}[\u201d\x22\u300d\u300f'])[^。？！\n]{0,20}(翻译|转换|转)成"
                        r"|^\s*(请|帮我|麻烦)?(总结|概括|翻译)(一下)?(这|下面)"
                        # (帮我把这些订单按金额排序: the list the message gives, sorted)
                        r"|^\s*(请|帮我|麻烦)?(把|将|给)(这些|这几个|这几条|下面的?|以下的?)[^。？！\n]{0,20}(按|按照|根据)[^。？！\n]{0,12}(排序|排列|排个序|分组|去重|汇总|求和)")
_OURS = re.compile(r"\b(we|our|ours|us)\b|我们")


def transforms_given_text(message: str) -> bool:
    """Whether the message asks to translate, summarise, convert or reword the text it gives."""
    low = _asked(message.lower())
    return bool(_TRANSFORM.match(low)) and not _OURS.search(low) and not _PROJECT_NAMED.search(low)


# A request that the agent act ("can you refund this customer", "go ahead and upload this mission",
# 帮我把订单金额改成99元): a note that forbids the agent that act, or holds it to asking first, is the
# note to see, whatever else the message shares with other notes (recall's rule look).
# (Words and answers are no act: "can you write a function", "could you suggest a name", "please explain".)
_REQUEST = (r"^\s*(please\s+|(can|could|would|will) you\s+(please\s+)?|go ahead and\s+|just\s+|now\s+)"
            r"(?!(tell|explain|describe|show|remind|help|summari[sz]e|translate|clarify|list|give|write|draft|suggest|recommend|"
            r"generate|compose|name|come up|think|brainstorm|review|check|look|find|search|read|answer|compare|teach|sort|format|convert)\b)[a-z]"
            r"|^\s*(请你?|麻烦你?|你(能|可以)?)?帮(我|忙)(?!(看看|解释|讲讲|说说|总结|翻译|写|起|想|生成|列|查|找|检查|比较))"
            # for someone (帮这个患者把处方里的药量改一下)
            r"|^\s*(请你?|麻烦你?|你(能|可以)?)?帮(这|那|该)(个|位|名)?[\u4e00-\u9fff]{1,4}?把")
_REQUEST_FIRST = ("please", "can", "could", "would", "will", "go", "just", "now", "请", "麻烦", "你", "帮")
# A note that forbids the agent an act or holds it to asking first: "The agent must never publish a
# release", "Never run kubectl delete against a shared cluster", "Ask before running migrations",
# 智能体不能修改订单金额. Read from the note's title, where such a rule states itself.
_FORBIDS = (r"\b(agent|assistant|ai|bot|claude|copilot|codex)\b[^.;:]{0,40}?\b(must not|mustn't|must never|should never|"
            r"should not|shouldn't|may not|cannot|can't|is not allowed to|never)\b"
            # what it may do first, then what it may not ("The agent may run tests locally; it must not push")
            r"|\b(agent|assistant|ai|bot|claude|copilot|codex)\b[^.;:]{0,60}; (it|they) (must not|mustn't|must never|should never|should not|may not|cannot|can't|never)\b"
            r"|^\s*(never|do not|don't|ask (the user |me |a person |someone )?(first |before)|always ask)\b"
            r"|(智能体|助手|代理|ai|agent|assistant|bot)[^。；.;]{0,12}(不能|不可以|不得|禁止|不要|不许|只能)|^\s*(不要|禁止|不得|永远不要|不许|切勿)")


def asks_to_act(message: str) -> bool:
    """Whether the message asks the agent to do something (not to translate or summarise what it gives)."""
    low = message.lower()
    return low.lstrip().startswith(_REQUEST_FIRST) and bool(re.match(_REQUEST, low)) and not transforms_given_text(message)


def forbids_an_act(title: str) -> bool:
    """Whether a note's title forbids the agent an act or holds it to asking first (the pattern is
    compiled on the first request to act, not at the hook's start)."""
    return re.search(_FORBIDS, title.lower()) is not None


# The note that sets the agent's own limits ("The agent must never delete audio, unpublish shows or change
# billing", 智能体不能修改订单金额): its title opens with the agent and forbids it acts. A request to act in the
# world ("please cancel this customer's subscription") needs it though they share no word: the note says
# "change billing", the message "cancel … subscription".
_AGENT_FIRST = r"^\s*(the |our |a |any )?(coding |ai |llm )?(agent|assistant|ai|bot|claude|copilot|codex)s?\b|^\s*(ai\s*)?(智能体|助手|代理)"
AGENT_WORDS = "agent assistant ai bot 智能体 助手"


def sets_agent_limits(title: str) -> bool:
    """Whether a note's title states what the agent may not do (`_AGENT_FIRST`, `forbids_an_act`)."""
    return re.match(_AGENT_FIRST, title.lower()) is not None and forbids_an_act(title)  # (compiled on first use, by re's cache)


# A task that adds a dependency ("add the memmap2 crate to read files faster", "let's pull in pyarrow", "use this GPL
# charting library", "npm install lodash", 引入一个日期处理的库) is done as the project's policy on dependencies says,
# though the package itself is in no note: that note is the one to see (recall's dependency look).
# (a pattern as text, compiled by `re` only for a message that holds one of `_ADDS_WORDS`)
_ADDS_DEPENDENCY = (
    r"^\s*(please\s+|let's\s+|let us\s+|(can|could|would) you\s+|(i|we) (want|need|'d like|would like) to\s+|go ahead and\s+|just\s+)?"
    r"((add|install|introduce|adopt|use|switch to|depend on|vendor)\s+[^.?!\n]{0,40}?\b(crate|package|library|lib|gem|module|dependency|dep|plugin|sdk)s?\b"
    r"(?! (card|cards|system|branch|branches|van|building|membership|number)\b)|(pull|bring) in\s+[\w.@/-]+)"
    r"|\b(npm|yarn|pnpm|bun) (i|install|add)\b|\bpip3? install\b|\b(uv|poetry) add\b|\bcargo add\b|\bgo get\b|\bgem install\b|\bbundle add\b"
    r"|\bcomposer require\b|\bdotnet add package\b"
    r"|(引入|加个|加一个|加上|装个|装一个|装上|安装|接入)[^，。？?]{0,12}(库|包|依赖|插件|sdk|crate)")
_ADDS_WORDS = ("add", "install", "introduce", "adopt", "use", "switch to", "depend on", "vendor", "pull in", "bring in", "go get", "composer",
               "引入", "加", "装", "接入")
# ... and the note that says how dependencies are chosen or added: its title names them, not as services started locally
# (本地依赖), injected (dependency injection) or checked by a probe.
_DEPENDENCY_POLICY = re.compile(r"\b(dependenc(y|ies)|deps)\b(?! injection)|third[- ]party (librar|packag|crate|gem|modul)|"
                                r"\b(new|adding|add)\s+(\w+\s+)?(packages?|librar(y|ies)|crates?|gems?)\b|(?<!起)(?<!跑)(?<!本地)依赖|第三方库|三方库|三方包")
DEPENDENCY_WORDS = "dependency dependencies deps package packages library libraries crate crates 依赖 第三方库"


def adds_dependency(message: str) -> bool:
    """Whether the message asks to add a dependency to the project (`_ADDS_DEPENDENCY`)."""
    low = _asked(message.lower())
    return (any(w in low for w in _ADDS_WORDS) and re.search(_ADDS_DEPENDENCY, low) is not None
            and not asks_what_anyone_knows(message))


def sets_dependency_policy(title: str) -> bool:
    """Whether a note's title is about the project's dependencies (`_DEPENDENCY_POLICY`)."""
    return _DEPENDENCY_POLICY.search(title.lower()) is not None


# A task names the kind of thing it makes ("write a migration that adds a shipped_at column", "add a list
# endpoint for invoices", "make an interface for the payment client"): the project's convention for that
# kind of thing is the note to see, though the task's own subject ("shipped_at", "invoices") is in no note.
_KIND_END = (r"(?:that|which|who|for|to|in|into|on|around|when|so|with|from|at|of|by|after|before|if|and|or|about|like|as|than|using|via|"
             r"without|under|over|between|per)")
_TASK_OBJECT = (r"^\s*(?:please\s+|(?:can|could|would|will) you\s+(?:please\s+)?|go ahead and\s+|let's\s+|(?:i|we) (?:need|want) to\s+)?"
                r"(?:add|write|create|make|generate|implement|build|introduce|set up|define|put|expose|wire up)\s+"
                r"(?:(?:a|an|the|some|new|another|one|two|three|proper|separate|simple|small|quick|basic|extra|more)\s+)*"
                rf"(?P<obj>(?!(?:this|these|that|those|it|them|me|us|sure|room|sense|time|my|our|your)\b)[a-z][\w-]*"
                rf"(?:\s+(?!{_KIND_END}\b)[a-z][\w-]*){{0,2}})(?=\s+{_KIND_END}\b|\s*[,.;:?!]|\s*$)")
# Words that say what a task is like, not what kind of thing it makes; and the units any code is made of
# ("write a function that parses a date", "a SwiftUI view that lists notes"), which name no kind a
# convention is about: a note titled "Every function that does I/O takes a context" is no answer to them.
_NOT_A_KIND = frozenset("it them this that these those sure room sense time way change changes fix fixes update updates thing things "
                        "stuff something better faster nicer cleaner work function functions method methods class classes script scripts "
                        "snippet snippets program programs code component components view views helper helpers module modules file files "
                        "page pages loop loops example examples one-liner".split())


def task_kind(message: str) -> list[str] | None:
    """The terms of the kind of thing a task makes (its object: "list endpoint" of "add a list endpoint for
    invoices"), the kind's own word last; None when the message is no such task."""
    # (a kind's name in quotes is still its name: "add a 'librarian' role")
    low = _asked(re.sub(r"[\"`‘“”]|(?<![a-z])'|'(?![a-z])", "", message.lower()))
    m = re.match(_TASK_OBJECT, low)
    if m is None:
        return None
    # (a file is of the kind its type names: "write a CSS file for the grid" makes CSS)
    obj = re.sub(r"\s+files?$", "", m.group("obj"))
    # (work on the thing at hand, "write a unit test for this function", is about that thing)
    if _NOT_A_KIND.intersection(obj.split()) or _AT_HAND.search(low):
        return None
    from .search import query_terms

    return query_terms(obj) or None


# Work on the thing at hand named by its act ("review this function for me", "write tests for my parser", "commit
# this") is done as the person or the project wants that act done: a note on how to do it ("When reviewing my code,
# point out bugs first", "Commit messages follow Conventional Commits") is the note to see, though the thing itself
# is in no note. The act's note must say so in its title: open with the act, or say "when …ing" it.
_ACT = (r"^\s*(?:please\s+|(?:can|could|would|will) you\s+(?:please\s+)?)?(review|refactor|test|document|comment|commit|name|rename|"
        r"format|lint|profile|benchmark|optimi[sz]e|debug|write tests for|add tests for|write docs for)\b(?=[^.?!\n]{0,40}\b(this|these|my)\b)")
_ACT_WORD = {"write tests for": "test", "add tests for": "test", "write docs for": "docs"}
_ACT_FIRST = frozenset("please can could would will review refactor test document comment commit name rename format lint profile benchmark "
                       "optimise optimize debug write add".split())


def act_kind(message: str) -> list[str] | None:
    """The act's term when the message asks for work on the thing at hand by naming it (`_ACT`), else None."""
    low = _asked(message.lower())
    words = low.split(maxsplit=1)
    m = re.match(_ACT, low) if words and words[0] in _ACT_FIRST else None  # (compiled only for a message that may be one)
    if m is None:
        return None
    from .search import term

    return [term(_ACT_WORD.get(m.group(1), m.group(1)))]


def describes_act(record: dict, act: list[str]) -> bool:  # type: ignore[type-arg]
    """Whether a note's title is about doing the act: it opens with it, or says "when …ing" it."""
    from .search import query_terms

    if opens_with_kind(record, act):
        return True
    _, when, after = f" {str(record.get('title', '')).lower()}".partition(" when ")
    return bool(when) and act[-1] in query_terms(after[:40])


def names_kind(record: dict, kind: list[str]) -> bool:  # type: ignore[type-arg]
    """Whether a note is about that kind of thing: its title or summary names the kind's own word, and
    the note holds every other word of it."""
    from .glossary import chinese_of, related_of
    from .search import token_set

    # (the kind's word by another of its names: a counter is a metric, an endpoint a handler or 接口)
    forms = {kind[-1], *related_of(kind[-1]), *chinese_of(kind[-1])}
    head = f"{record.get('title', '')} {record.get('summary', '')}"
    # a stem but for its last letter is the start of its word ("librari" of library): a title that holds none
    # of them as text is not read further (recall asks this of up to 72 candidates a layer)
    low = head.lower()
    if not any(form[:max(3, len(form) - 1)] in low for form in forms):
        return False
    # (`token_set` remembers the texts it read: recall asks this of the same titles prompt after prompt, a
    # server's turns ~40 of them at 1,000 notes)
    named = token_set(head)
    if forms.isdisjoint(named):
        return False
    # (the whole note is read only for the kind's other words, and only when the title and summary lack them)
    rest = set(kind[:-1])
    return rest.issubset(named) or rest.issubset(token_set(_note_text(record)))


# A title about a kind of thing names it among its first words ("Controllers are thin: …"); one that names it
# later uses it in passing ("Authorization uses policies; every controller action calls …").
KIND_OPENS = 3


def opens_with_kind(record: dict, kind: list[str]) -> bool:  # type: ignore[type-arg]
    """Whether a note's title names the kind's own word (or another name of it) among its first words."""
    from .glossary import related_of
    from .search import token_set

    forms = {kind[-1], *related_of(kind[-1])}
    opening = " ".join(str(record.get("title", "")).split()[:KIND_OPENS])
    low = opening.lower()  # (a text test first, as in `names_kind`: recall asks this of every candidate of a task)
    return any(form[:max(3, len(form) - 1)] in low for form in forms) and not forms.isdisjoint(token_set(opening))


# A message that names the project ("in this project", "our codebase", 我们项目) asks what it remembers,
# whatever the learned reading makes of its other words ("this", "in this" lean general: "summarize this").
_PROJECT_NAMED = re.compile(r"\b(this|our) (project|repo|repository|codebase|monorepo|team|company)\b|(我们|本|这个)(项目|仓库|团队|公司)")


def general_line(message: str, matched: int, strict: float) -> float:
    """The learned reading's line for a message, given how many of its terms the note that brought it holds and the share
    it holds word for word (`GENERAL_ABOVE`, `GENERAL_ABOVE_ONE_TERM`, `GENERAL_LINE_BASE`)."""
    line = GENERAL_ABOVE_ONE_TERM if matched == 1 and message.isascii() else GENERAL_ABOVE
    return min(line, GENERAL_LINE_BASE + GENERAL_LINE_PER_SHARE * strict)


def reads_as_general(message: str, line: float = GENERAL_ABOVE) -> bool:
    """The learned reading: the message asks what anyone could answer (above `line`)."""
    low = message.lower()
    return not _PROJECT_NAMED.search(low) and not _IDENTIFIER.search(low) and general_probability(message) > line


# A question for what a term means ("what is OCPP", "what does HL7 stand for", "define idempotency"):
# a note that merely uses the term does not answer it, one that says what it is does ("SEV1 means
# customers cannot pay"). "What is the staging URL" and "what is our MSRV" ask for the project's own
# value: a determiner or pronoun keeps a message out, as does a word that names no term ("what's next").
# (a pattern as text, compiled by `re` only for a message that holds one of `_DEFINITION_WORDS`)
_DEFINITION = (
    r"^\s*(?:(?:what(?:'s| is| are)|whats|define|explain) (?:an? )?(?P<a>(?!(?:what|how|why|when|where|who|which)\b)[\w.+#/-]+(?: [\w.+#/-]+){0,3})"
    # (asked within a field: "what does QoS mean in ROS 2")
    r"|what (?:does|do) (?:an? )?(?P<b>[\w.+#/-]+(?: [\w.+#/-]+){0,3}) (?:stand for|mean)(?P<field> in (?!(?:our|the|this|my|your|these|those)\b)[\w.+#-]+(?: [\w.+#-]+)?)?"
    # "explain what a Sharpe ratio is", "explain what row-level security is in Postgres"
    r"|explain what (?:an? )?(?P<c>[\w.+#/-]+(?: [\w.+#/-]+)?) (?:is|are|means)(?: in (?:general|[\w.+#-]+))?"
    # 什么是微服务, 幂等是什么意思, CAP 指的是什么
    # (ROS 2 的 QoS 是什么意思: asked within a field, which is no part of the term)
    # (a term that mixes scripts may hold a space: 什么是双向 TLS)
    # (… or an English word before a Chinese one: 什么是 TCP 长连接, 什么是 Elasticsearch 的倒排索引)
    r"|(?:什么是|啥是)\s*(?P<d>(?:[a-z0-9][\w.+#-]{12,30}(?= )|[^\s，。？！?,]{1,12}?)(?: [a-z0-9][\w.+#-]*| [^\s，。？！?,a-z0-9]{1,8})?)|(?:(?P<zfield>[^，。？！?,]{1,20}?)\s*(?:的|里的?|中的?)\s*)?(?P<e>[^\s，。？！?,]{1,12}?)\s*(?:是什么意思|是啥意思|指的是什么|是什么东西)"
    # how a thing works, asked of the world (CAS 单点登录的原理是什么, HTTPS 的工作原理): a note that says what the thing is may
    # answer it; one that names it among the stack's parts does not
    r"|(?P<f>[^，。？！?,]{1,16}?)\s*的?(?:工作|实现|底层)?原理(?:是(?:什么|啥|怎样的)?)?"
    # a term to be explained, as "explain HMAC" is (解释一下 HMAC 签名, 给我讲讲 Secure Boot); not ours (解释一下我们的发布流程)
    # nor the thing at hand (解释一下这段代码)
    r"|(?:请|麻烦)?你?(?:给我|跟我|帮我|和我|为我)?(?:解释|讲解|讲讲|说说)(?:一?下)?\s*(?P<g>(?!一?下|怎|如何|为什|为啥|哪|什么|啥|多少|几|谁|是否|能不能|可不可以|有没有)(?:[a-z0-9][\w.+#-]*|[^\s，。？！?,a-z0-9]{1,8})(?: [a-z0-9][\w.+#-]*| ?[^\s，。？！?,a-z0-9]{1,8})?))\s*[?？]?\s*$"
)
_DEFINITION_WORDS = ("what", "define", "explain", "什么", "啥", "原理", "解释", "讲解", "讲讲", "说说")
_NOT_A_TERM_ZH = frozenset("我你他这那哪咱本的")
_NO_TERM = frozenset("the our my your their his her its this that these those it there we you i he she they up new next wrong "
                     "left happening going missing broken done pending planned blocking urgent important going on".split())


def definition_subject(message: str) -> str | None:
    """The term a message asks the meaning of, or None when it asks something else."""
    asked = _asked(message.lower())
    message = message[len(message) - len(asked):] if len(asked) < len(message) else message
    if any(w in asked for w in _IN_GENERAL_WORDS):
        asked = re.sub(_IN_GENERAL, "", asked)  # "what is dynamic ad insertion in general": the term, asked of the world
    unprefixed = _unprefixed(asked)
    m = re.match(_DEFINITION, unprefixed) if any(w in unprefixed for w in _DEFINITION_WORDS) else None
    if m is None:
        return None
    if m.group("zfield") and _NOT_A_TERM_ZH.intersection(m.group("zfield")):
        return None  # (我们的 SLA 是什么意思 asks what ours says)
    term = m.group("a") or m.group("b") or m.group("c") or m.group("d") or m.group("e") or m.group("f") or m.group("g")
    if " in " in term and _ARTICLE_ASKED.match(_unprefixed(asked)):
        term = term.split(" in ")[0]  # "what is a split brain in databases": the field it is asked in is no part of it
    if not term.isascii():
        # (a tool's own term is asked of the tool's world: "Elasticsearch 的倒排索引" is what an inverted index is, as "an
        # inverted index in Elasticsearch" is; 我们的 SLA asks what ours says)
        named = re.match(r"\s*[a-z][\w.+#-]*( [a-z][\w.+#-]*)? ?的 ?(?=[^\x00-\x7f])", term, re.IGNORECASE)
        if named is not None:
            term = term[named.end():]
        return None if _NOT_A_TERM_ZH.intersection(term) else term
    at = message.lower().find(term)
    if term.count(" ") > 1 and (at < 0 or not _NAMED_TERM.fullmatch(message[at:at + len(term)])):
        return None  # three words or more name a term only as a name does ("what is 21 CFR Part 11"), not a phrase ("what is failing in ci")
    return None if _NO_TERM.intersection(term.split()) or _IDENTIFIER.search(term) else term


_IN_GENERAL = r"\s*,?\s*\b(in general|generally|in simple terms|in plain (english|words)|in a nutshell|exactly|actually)(?=\s*[?？.]?\s*$)"
_IN_GENERAL_WORDS = ("general", "simple terms", "plain", "nutshell", "exactly", "actually")
# "What is a …" with its article asks what a thing is, wherever it is asked about.
_ARTICLE_ASKED = re.compile(r"\s*(?:what(?:'s| is| are)|whats|define|explain) an? ")
# A term of three words or more written as a name: each word capitalised or a number.
_NAMED_TERM = re.compile(r"[A-Z0-9][\w.+#/-]*(?: (?:[A-Z0-9][\w.+#/-]*|of|for|and)){2,3}")


def defines(record: dict, term: str) -> bool:  # type: ignore[type-arg]
    """Whether a note says what `term` is: the term is followed by "is a", "is the", "means", "stands
    for", a colon or a dash, or follows "called" or "known as", or "as" at the end of a clause ("Tauri capabilities list …" and
    "Sharpe ratios are annualised …" do not)."""
    text = _note_text(record).lower()
    word = re.escape(term)
    if not term.isascii():  # no word boundaries in Chinese: 微服务是…, 所谓幂等就是…, 叫做灰度发布
        return re.search(rf"{word}\s*(?:（[^）]*）|\([^)]*\))?\s*(?:是指|指的是|就是|即|意思是|是一种|是一个|是|[:：=\u2014])|(?:叫做|叫|称为|称作|所谓的?){word}", text) is not None
    if re.search(rf"\b{word}(?:s|es)?\b\s*(?:\([^)]*\)\s*)?(?:(?:is|are|was) (?:an?|the|one|our|how|what|where)\b|means|mean|stands for|refers to|[:=\u2014\u2013：]|- "
                 # (said in Chinese: "FEFO 是先到期先出")
                 rf"|是|指的是|就是|即|意思是)"
                 rf"|\b(?:called|named|known as|aka|means|i\.e\.) (?:an? |the )?{word}\b"
                 # (the name something goes by, ending its clause: "we run our own payroll on the product as company 1 (dogfooding)")
                 rf"|\bas (?:an? |the )?{word}\s*(?:\(|[.;,]|$)", text):
        return True
    # a list of meanings that says "is" once ("E21 is a sensor fault, E34 a relay fault")
    if re.search(rf"\b\S+ (?:is|means) an? [^.;:]*?, {word} an? \w", text) is not None:
        return True
    # a kind named by its mark ("what is a P1 incident"): the note says what the mark is and names the kind
    # ("A booking outage over 15 minutes is a P1: page on-call and post in #incidents")
    mark, _, kind = term.partition(" ")
    return bool(kind) and " " not in kind and re.search(rf"\b{re.escape(kind[:5])}", text) is not None and defines(record, mark)


# Two named things weighed ("is an A100 faster than an H100", "Postgres vs MySQL, which is better",
# "Spring Cloud 和 Dubbo 哪个好"): a note that names one of them (the stack we run on) does not weigh
# them; one that names both may ("we picked Kafka over RabbitMQ for replay"). A side that points at
# the project or the moment ("the old one", "before") makes it a question about ours, left alone.
_SIDE = r"[a-z0-9][\w.+#-]*(?: [a-z0-9][\w.+#-]*){0,2}"
# (a thing named in Chinese, weighed in Chinese: 股票和基金哪个好)
_SIDE_ZH = r"[\u4e00-\u9fff]{2,6}?"


@lru_cache(maxsize=1)
def _compared() -> re.Pattern[str]:
    """Built on first use: most messages hold no word a comparison needs (`_WEIGHING`)."""
    return re.compile(
        rf"^\s*(?:is|are|was|were) (?:an? |the )?(?P<a>{_SIDE}) (?:really |actually |any |much )?"
        r"(?:better|faster|slower|cheaper|safer|easier|simpler|lighter|more \w+|less \w+) (?:than|compared to) "
        rf"(?:an? |the )?(?P<b>{_SIDE})\s*\??\s*$"
        rf"|^\s*(?P<c>{_SIDE}) (?:vs\.?|versus) (?P<d>{_SIDE})\s*[?:,]?\s*(?:(?:which|what)\b.*)?$"
        # ("how does Opsgenie compare with PagerDuty")
        rf"|^\s*how (?:does|do|did|would|will) (?:an? |the )?(?P<g>{_SIDE}) (?:compare|stack up|measure up) (?:with|to|against) (?:an? |the )?(?P<h>{_SIDE})\s*\??\s*$"
        rf"|^\s*(?P<e>{_SIDE}|{_SIDE_ZH})\s*(?:和|与|跟|还是|vs\.?|对比)\s*(?P<f>{_SIDE}|{_SIDE_ZH})\s*"
        # (any quality asked of one "more" than the other: 哪个更安全, 谁更省内存; not 哪个发包裹, which asks which one does it)
        # (a quality alone ends the question: 我爸跟王医生的合同快到期了 says 快 of nothing weighed)
        r"(?:(?:哪个|哪一个|谁)更[\u4e00-\u9fff]{1,4}|(?:(?:哪个|哪一个|谁)更?|更)(?:好|快|强|适合|合适|稳定|流行|值得用|好用|便宜|划算|安全)"
        r"|(?:好|快|强|适合|合适|稳定|流行|值得用|好用|便宜|划算|安全)\s*[?？]?\s*$"
        # (the choice asked for: NSQ 和 Kafka 怎么选, 选哪个)
        r"|(?:(?:应该|该)?(?:怎么|如何)选(?:择)?|(?:应该|该)?(?:选|用)哪(?:个|一个))\s*[?？]?\s*$)"
        # ("how do I choose between NSQ and Kafka")
        rf"|^\s*how (?:do i|do you|should i|should we|do we|to|can i) (?:choose|pick|decide) between (?:an? |the )?(?P<i>{_SIDE}) and (?:an? |the )?(?P<j>{_SIDE})\s*\??\s*$")


_WEIGHING = (" than ", " vs", "versus", " compare", " stack up", " measure up", " between ", "哪个", "更", "还是", "对比", "谁好", "和", "与", "跟")
_OUR_SIDE = frozenset("one ones it this that these those them before now ours mine yours we our us my".split())


# A question for how two things differ ("what is the difference between SAML and OIDC", 等保三级和二级有什么不同) is answered
# by a note that names both (it may say what each is: "Orders carry eta_initial (promised at checkout) and eta_current …").
_DIFFERED = (rf"^\s*what(?:'s| is| are)(?: the)? (?:main |key |real )?differences? between (?:an? |the )?(?P<a>{_SIDE}) and (?:an? |the )?(?P<b>{_SIDE})\s*\??\s*$"
             # ("how does HL7 v2 differ from FHIR", "how is gRPC different from REST")
             rf"|^\s*how (?:does|do|is|are) (?:an? |the )?(?P<e>{_SIDE}) (?:differ|different) from (?:an? |the )?(?P<f>{_SIDE})\s*\??\s*$"
             rf"|^\s*(?P<c>{_SIDE}|{_SIDE_ZH})\s*(?:和|与|跟)\s*(?P<d>{_SIDE}|{_SIDE_ZH})\s*"
             r"(?:有(?:什么|啥|哪些)(?:不同|区别|差别|差异)|的(?:区别|不同|差别|差异)(?:是(?:什么|啥)|在哪(?:里)?|有哪些)?)\s*[?？]?\s*$")
_DIFFERING = ("differ", "不同", "区别", "差别", "差异")


def _two_sides(low: str, m: re.Match[str] | None) -> tuple[str, str] | None:
    if m is None or _OURS.search(low) or _PROJECT_NAMED.search(low):
        return None
    a, b = (re.sub(r" (for|in|on|at|when|with) .*$", "", x) for x in m.groups() if x)  # "c++ for trading": c++
    return None if _OUR_SIDE.intersection(f"{a} {b}".split()) else (a, b)


def compared(message: str) -> tuple[str, str] | None:
    """The two things a message weighs against each other, or None."""
    low = _asked(message.lower())
    return _two_sides(low, _compared().match(low)) if any(w in low for w in _WEIGHING) else None


def differed(message: str) -> tuple[str, str] | None:
    """The two things a message asks how they differ, or None."""
    low = _asked(message.lower())
    return _two_sides(low, re.match(_DIFFERED, low)) if any(w in low for w in _DIFFERING) else None


# What a note that weighs two things says of them ("we chose SQLite over Postgres", "Kafka replaced RabbitMQ",
# 用 TiDB 替代 MySQL); one that names both for their uses ("orders in TiDB, menus in MySQL") weighs nothing.
_WEIGHED = re.compile(r"\b(than|over|instead of|rather than|vs\.?|versus|compared|comparison|benchmark\w*|better|worse|faster|slower|"
                      r"cheaper|switch\w*|migrat\w*|mov(ed|ing) (from|off|away)|replac\w*|chose|choose|picked|prefer\w*|dropped|no longer)\b"
                      # (one named and the other set aside: "uses Polars, not pandas"; 用 Kafka，不用 RabbitMQ)
                      r"|, not\b|比|而不是|替代|替换|换成|选择|选了|迁移|取代|优于|不如|对比|[，,]\s*不用")


def names_both(record: dict, sides: tuple[str, str]) -> bool:  # type: ignore[type-arg]
    """Whether a note names both things (a term of each that the other side lacks, where it has one:
    "JUnit 5" and "JUnit 4" differ by their numbers, and a note on JUnit 5 names one of them)."""
    from .search import query_terms

    text = set(query_terms(_note_text(record)))
    a, b = (set(query_terms(side)) for side in sides)
    return all(text.intersection((own - other) or own) for own, other in ((a, b), (b, a)))


def weighs(record: dict, sides: tuple[str, str]) -> bool:  # type: ignore[type-arg]
    """Whether a note names both things weighed and says something that weighs them."""
    return names_both(record, sides) and _WEIGHED.search(_note_text(record).lower()) is not None


# ---------------------------------------------------------------- the learned reading

# Any non-ASCII character, only the Chinese ones kept below: a class of the CJK range itself took the
# regex compiler 1.7 ms (it walks every code point), on every start of the recall hook.
_TOKEN = re.compile(r"[a-z0-9']+|[^\x00-\x7f]")


def features(message: str) -> list[str]:
    """The message's words and word pairs, its opening word and pair (marked "^"), its last word (marked "$"),
    and the character pairs and triples of its Chinese: how a message asks, more than what it names (the triples
    and the last word: over held-outs 170-201 left out of the learning, 4 more no-answer prompts quiet and one
    answer more found)."""
    tokens = [t for t in _TOKEN.findall(_unprefixed(_asked(message.lower()))) if t.isascii() or "\u4e00" <= t <= "\u9fff"]
    words = [t for t in tokens if not "\u4e00" <= t <= "\u9fff"]
    han = "".join(t for t in tokens if "\u4e00" <= t <= "\u9fff")
    out = set(words) | {f"{a} {b}" for a, b in zip(words, words[1:])} | {a + b for a, b in zip(han, han[1:])} | {han[i:i + 3] for i in range(len(han) - 2)}
    if words:
        out.add(words[-1] + "$")
        out.add("^" + words[0])
        if len(words) > 1:
            out.add(f"^{words[0]} {words[1]}")
    elif han:
        out.add("^" + han[:2])
    return sorted(out)


def learn(examples: list[tuple[str, bool]], epochs: int = 40, rate: float = 0.2) -> dict[str, float]:
    """Weights of the features seen in at least two messages (`True`: asks what anyone could
    answer), the bias under the key ""."""
    data = [(features(text), 1.0 if general else 0.0) for text, general in examples]
    return fit(data, epochs=epochs, rate=rate, l2=L2, min_count=MIN_FEATURE_COUNT, positive_weight=GENERAL_WEIGHT)


def examples_of(recall_set: dict) -> list[tuple[str, bool]]:  # type: ignore[type-arg]
    """A labelled recall set's prompts (`lingshu bench --recall-set`'s format) as examples: a
    prompt with no expected note asks what anyone could answer; traps are left out."""
    return [(p["text"], not p.get("expect")) for p in recall_set.get("prompts", []) if p.get("judge") != "forbidden"]


@lru_cache(maxsize=1)
def _weights() -> dict[str, float]:
    try:
        loaded: dict[str, float] = json.loads((Path(__file__).with_name(WEIGHTS)).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"": -30.0}  # no weights shipped: the rules alone decide
    return loaded


def general_probability(message: str) -> float:
    return probability(_weights(), features(message))
