// shadow.h in a -I folder: hidden by the one next to quote_include.cu
#define SHADOW_FROM 2
