"""A tiny model2vec model built on the spot (tests never touch the network): a word-level
tokenizer and one vector per word, where the words of one topic point the same way. "ship",
"release" and "部署" are near each other and far from "postgres"; a word it does not know is
dropped, as model2vec drops unknown tokens."""

from __future__ import annotations

from pathlib import Path

TOPICS = {
    "ship": "deploy deploys deployed deploying ship shipping shipped release releases rollout production prod customers 发 布 部 署 上 线",
    "database": "database databases postgres db sql schema 库 数 据",
    "backup": "backup backups restore restored snapshot snapshots yesterday lost 备 份 恢 复",
    "test": "test tests pytest checks verify broke break 测 试",
    "cache": "cache caches cached redis ttl stale 缓 存",
    "secret": "secret secrets password passwords credentials vault token 密 码 钥",
    "food": "cake chocolate bake baking recipe 蛋 糕",
}


def build(folder: Path, *, variant: int = 0) -> Path:
    """Write the model into `folder` in model2vec's own layout. Variant 1 is another model (other
    dimensions, the same topics), for a model change."""
    import numpy as np
    from model2vec import StaticModel
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    words: list[str] = ["[UNK]"]
    topic_of: list[int] = [-1]
    for t, line in enumerate(TOPICS.values()):
        for word in line.split():
            words.append(word)
            topic_of.append(t)
    extra = 2 + 3 * variant
    dim = len(TOPICS) + extra
    vectors = np.zeros((len(words), dim), dtype=np.float32)
    for i, t in enumerate(topic_of):
        if t >= 0:
            vectors[i, (t + variant) % len(TOPICS)] = 1.0
            vectors[i, len(TOPICS) + i % extra] = 0.15  # words of a topic are near, not the same
    tokenizer = Tokenizer(models.WordLevel(vocab={w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True, handle_chinese_chars=True, strip_accents=False, clean_text=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    StaticModel(vectors=vectors, tokenizer=tokenizer, normalize=True).save_pretrained(str(folder))
    return folder
