// weights.h: a plain header included by a header that cucc rewrites.
#ifndef WEIGHTS_H
#define WEIGHTS_H
#define WEIGHT 3
#endif
