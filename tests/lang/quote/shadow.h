// shadow.h next to quote_include.cu: its quoted include finds this one
// first, as nvcc does, not the same-named header in a -I folder
// (tests/lang/inc/shadow.h)
#define SHADOW_FROM 1
