"""The machine a benchmark ran on: the processor, its vector extensions, its cores,
the scan path nimkit takes (``NIMKIT_SIMD`` forces one the CPU has) and the build of
nimkit installed (the test command's ``quick`` one is no build to time)."""

from __future__ import annotations

import os
import platform

from nimkit import _core


def _flags() -> tuple[str, set[str]]:
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
    except OSError:
        return platform.processor() or "unknown CPU", set()
    lines = text.splitlines()
    model = next((x.split(":", 1)[1].strip() for x in lines if x.startswith("model name")), "?")
    flags = next((x for x in lines if x.startswith("flags")), "").split()
    return model, set(flags)


def describe() -> str:
    """E.g. ``AMD EPYC; AVX-512 and AVX2; 2 cores; scan: avx2 (NIMKIT_SIMD); build:
    release``."""
    model, flags = _flags()
    has = {"avx512": "avx512f" in flags, "avx2": "avx2" in flags, "scalar": True}
    extensions = " and ".join(
        name for name, flag in (("AVX-512", "avx512f"), ("AVX2", "avx2")) if flag in flags
    )
    forced = os.environ.get("NIMKIT_SIMD")
    if has.get(forced):
        path = f"{forced} (NIMKIT_SIMD)"
    else:
        path = next(p for p in ("avx512", "avx2", "scalar") if has[p])
    cores = f"{os.cpu_count()} cores"
    return f"{model}; {extensions or 'no AVX2'}; {cores}; scan: {path}; build: {_core.BUILD}"
