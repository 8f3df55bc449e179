#!/usr/bin/env python3
"""Convert an OpenAI `.tiktoken` rank file into pith's compact vocabulary.

Usage: make_vocab.py SOURCE.tiktoken OUT.bpe SHA256

SOURCE is the published rank file (one `base64(token) rank` per line); its
SHA-256 must equal SHA256, the hash tiktoken itself checks on download.

The output holds the same tokens with nothing else:
    b"BPE1", token count as u32 little-endian,
    then for rank 0, 1, 2, ... in order: one length byte (1..=255), the token bytes.
Ranks are implied by position, so the file rejects a source whose ranks are
not exactly 0..count-1.
"""
import base64
import hashlib
import struct
import sys


def main() -> None:
    source, out, expected = sys.argv[1:4]
    raw = open(source, "rb").read()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != expected:
        sys.exit(f"{source}: sha256 {digest}, expected {expected}")
    tokens = {}
    for line in raw.splitlines():
        if not line:
            continue
        token, rank = line.split()
        tokens[int(rank)] = base64.b64decode(token, validate=True)
    if sorted(tokens) != list(range(len(tokens))):
        sys.exit(f"{source}: ranks are not 0..{len(tokens) - 1}")
    if len(set(tokens.values())) != len(tokens):
        sys.exit(f"{source}: a token appears twice")
    body = bytearray(b"BPE1" + struct.pack("<I", len(tokens)))
    for rank in range(len(tokens)):
        token = tokens[rank]
        if not 1 <= len(token) <= 255:
            sys.exit(f"{source}: token {rank} has {len(token)} bytes")
        body.append(len(token))
        body += token
    open(out, "wb").write(bytes(body))
    print(f"{out}: {len(tokens)} tokens, {len(body)} bytes, sha256 {hashlib.sha256(body).hexdigest()}")


if __name__ == "__main__":
    main()
