#!/usr/bin/env python3
"""math_api_list.py: makes tests/lang/math_api_list.txt, the CUDA Math API's
functions as call expressions on typed placeholder variables (a development
tool: it reads a CUDA toolkit's headers, where each documented function
follows a doc comment naming its group, and keeps only names and parameter
types). Usage: tools/math_api_list.py [/usr/local/cuda/include] > list"""
import re, sys, os

INC = sys.argv[1] if len(sys.argv) > 1 else "/usr/local/cuda/include"
# the documentation's groups, in the order the list gives them
GROUPS = [
    ("CUDA_MATH_SINGLE", "single precision mathematical functions"),
    ("CUDA_MATH_DOUBLE", "double precision mathematical functions"),
    ("CUDA_MATH_INT", "integer mathematical functions"),
    ("CUDA_MATH_INTRINSIC_SINGLE", "single precision intrinsics"),
    ("CUDA_MATH_INTRINSIC_DOUBLE", "double precision intrinsics"),
    ("CUDA_MATH_INTRINSIC_INT", "integer intrinsics"),
    ("CUDA_MATH_INTRINSIC_CAST", "type casting intrinsics"),
    ("CUDA_MATH_INTRINSIC_SIMD", "SIMD intrinsics"),
    ("CUDA_MATH__HALF_ARITHMETIC", "half arithmetic (cuda_fp16.h)"),
    ("CUDA_MATH__HALF2_ARITHMETIC", "half2 arithmetic (cuda_fp16.h)"),
    ("CUDA_MATH__HALF_COMPARISON", "half comparison (cuda_fp16.h)"),
    ("CUDA_MATH__HALF2_COMPARISON", "half2 comparison (cuda_fp16.h)"),
    ("CUDA_MATH__HALF_FUNCTIONS", "half math functions (cuda_fp16.h)"),
    ("CUDA_MATH__HALF2_FUNCTIONS", "half2 math functions (cuda_fp16.h)"),
    ("CUDA_MATH__HALF_MISC", "half conversion and data movement (cuda_fp16.h)"),
    ("CUDA_MATH__BFLOAT16_ARITHMETIC", "bfloat16 arithmetic (cuda_bf16.h)"),
    ("CUDA_MATH__BFLOAT162_ARITHMETIC", "bfloat162 arithmetic (cuda_bf16.h)"),
    ("CUDA_MATH__BFLOAT16_COMPARISON", "bfloat16 comparison (cuda_bf16.h)"),
    ("CUDA_MATH__BFLOAT162_COMPARISON", "bfloat162 comparison (cuda_bf16.h)"),
    ("CUDA_MATH__BFLOAT16_FUNCTIONS", "bfloat16 math functions (cuda_bf16.h)"),
    ("CUDA_MATH__BFLOAT162_FUNCTIONS", "bfloat162 math functions (cuda_bf16.h)"),
    ("CUDA_MATH__BFLOAT16_MISC", "bfloat16 conversion and data movement (cuda_bf16.h)"),
]
FILES = ["crt/math_functions.h", "crt/device_functions.h", "crt/device_double_functions.h",
         "sm_20_intrinsics.h", "sm_30_intrinsics.h", "sm_32_intrinsics.h", "sm_61_intrinsics.h",
         "cuda_fp16.h", "cuda_bf16.h"]
# parameter type -> placeholder variable (declared by the test's generator)
VARS = {
    "float": "f", "double": "d", "int": "i", "unsigned int": "u", "unsigned": "u",
    "long int": "l", "long": "l", "unsigned long int": "ul", "unsigned long": "ul",
    "long long int": "ll", "long long": "ll", "unsigned long long int": "ull", "unsigned long long": "ull",
    "short int": "s", "short": "s", "unsigned short int": "us", "unsigned short": "us",
    "char": "c", "signed char": "sc", "unsigned char": "uc", "bool": "b",
    "__half": "h", "__half2": "h2", "__nv_bfloat16": "bf", "__nv_bfloat162": "bf2",
    "float2": "f2", "__half_raw": "hr", "__half2_raw": "h2r", "__nv_bfloat16_raw": "bfr",
    "__nv_bfloat162_raw": "bf2r", "size_t": "u",
    "float*": "pf", "double*": "pd", "int*": "pi", "unsigned int*": "pu", "long long int*": "pll",
    "__half*": "ph", "__half2*": "ph2", "__nv_bfloat16*": "pbf", "__nv_bfloat162*": "pbf2",
    "char*": "pc", "float2*": "pf2", "float4*": "pf4", "bool*": "pb",
    "short2": "s2v", "ushort2": "us2v", "char4": "c4v", "uchar4": "uc4v",
}

def norm_type(p):
    p = re.sub(r"=.*", "", p).strip()                   # default argument
    p = re.sub(r"\b(const|volatile|__restrict__|__restrict)\b", " ", p)
    p = re.sub(r"\s*\*\s*", "* ", p)
    toks = p.split()
    if len(toks) > 1 and not toks[-1].endswith("*") and toks[-1] not in ("int", "char", "long", "short", "float", "double", "unsigned"):
        toks = toks[:-1]                                  # the parameter's name
    t = " ".join(toks).replace("* ", "*").strip()
    t = t.replace(" *", "*")
    return t

def main():
    order = {g: k for k, (g, _) in enumerate(GROUPS)}
    out = {g: [] for g, _ in GROUPS}
    seen = set()
    bad = []
    for f in FILES:
        text = open(os.path.join(INC, f), encoding="latin-1").read()
        for m in re.finditer(r"/\*\*(.*?)\*/", text, re.S):
            g = re.search(r"\\ingroup\s+(\w+)", m.group(1))
            if not g or g.group(1) not in order or "\\defgroup" in m.group(1):
                continue
            rest = text[m.end():]
            rest = re.sub(r"^\s*((#[^\n]*\n|/\*(?!\*).*?\*/)\s*)*", "", rest, flags=re.S)
            decl = re.match(r"([^;{]*?)\b(\w+)\s*\(([^()]*)\)", rest, re.S)
            if not decl:
                bad.append(rest[:80]); continue
            name, params = decl.group(2), decl.group(3).strip()
            if "template" in decl.group(1) or "operator" in decl.group(1):
                bad.append(decl.group(0)[:80]); continue
            args = []
            if params and params != "void":
                for p in params.split(","):
                    t = norm_type(p)
                    if t not in VARS:
                        bad.append("%s: %s" % (name, t)); args = None; break
                    args.append(VARS[t])
            if args is None:
                continue
            call = "%s(%s)" % (name, ", ".join(args))
            if re.search(r"\bvoid\s*$", decl.group(1)):
                call = "void " + call                     # no value to use
            if call in seen:
                continue
            seen.add(call)
            out[g.group(1)].append(call)
    print("# math_api_list.txt: the CUDA Math API, one call per line on typed placeholder")
    print("# variables (f float, d double, i int, u unsigned, l long, ul unsigned long,")
    print("# ll/ull long long, s/us short, sc/uc char, b bool, h __half, h2 __half2,")
    print("# bf __nv_bfloat16, bf2 __nv_bfloat162, hr/h2r/bfr/bf2r their _raw types,")
    print("# f2 float2, pX a pointer to X). Made by tools/math_api_list.py from the names")
    print("# and parameter types of the functions a CUDA 13 toolkit's headers document")
    print("# in each group of the Math API reference (the programming guide's intrinsic")
    print("# functions are all among them); edit by hand from here on. tests/lang/")
    print("# math_api_list.cmake compiles every call in device code with cucc.")
    print("# '@ group' starts a group (one kernel); 'void' marks a call with no value;")
    print("# a call followed by '# refused: reason' stays out, and the test prints it.")
    for g, title in GROUPS:
        print("\n@ %s" % title)
        for c in out[g]:
            print(c)
    for b in bad:
        print("SKIPPED:", b, file=sys.stderr)

main()
