/* texture_indirect_functions.h: fetches from texture objects (our own
 * header): tex1Dfetch, tex1D, tex2D, tex3D. Plain device code that reads
 * the cu_tex a cudaTextureObject_t points to (cucc_tex.h), with CUDA's
 * address modes, point and linear filtering (weights in 1/256 steps, as the
 * hardware's 8-bit fraction) and both read modes. Results are scalars or
 * the vector types below. */
#ifndef CUCC_TEXTURE_INDIRECT_FUNCTIONS_H
#define CUCC_TEXTURE_INDIRECT_FUNCTIONS_H
#include "cucc_tex.h"
#ifdef __cplusplus

/* index i of a dimension of n texels under address mode m; -1: the border */
static __device__ inline int cu_tex_idx(int i, int n, int m) {
  if (m == cudaAddressModeWrap) return ((i % n) + n) % n;
  if (m == cudaAddressModeMirror) {
    int k = ((i % (2 * n)) + 2 * n) % (2 * n);
    return k < n ? k : 2 * n - 1 - k;
  }
  if (m == cudaAddressModeBorder) return i < 0 || i >= n ? -1 : i;
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* channel c of texel (x, y, z), converted as the read mode says */
static __device__ inline float cu_tex_texel(const cu_tex *t, int x, int y, int z, int c) {
  if (x < 0 || y < 0 || z < 0) return t->border[c];
  if (c >= t->nch) return 0.0f;
  const char *p = t->data + (unsigned long long)z * t->slice + (unsigned long long)y * t->pitch +
                  (unsigned long long)x * (t->nch * t->bits / 8);
  int b = t->bits, k = t->kind, nr = t->normalized_read;
  if (k == cudaChannelFormatKindFloat) return b == 32 ? ((const float *)p)[c] : 0.0f;
  if (b == 8 && k == cudaChannelFormatKindUnsigned) return ((const unsigned char *)p)[c] / (nr ? 255.0f : 1.0f);
  if (b == 8) return fmaxf(((const signed char *)p)[c] / (nr ? 127.0f : 1.0f), nr ? -1.0f : -128.0f);
  if (b == 16 && k == cudaChannelFormatKindUnsigned) return ((const unsigned short *)p)[c] / (nr ? 65535.0f : 1.0f);
  if (b == 16) return fmaxf(((const short *)p)[c] / (nr ? 32767.0f : 1.0f), nr ? -1.0f : -32768.0f);
  if (k == cudaChannelFormatKindUnsigned) return (float)((const unsigned *)p)[c];
  return (float)((const int *)p)[c];
}

/* channel c at texture coordinates (u, v, w) of a texture of dims
 * dimensions; dims 0: texel i of linear memory (tex1Dfetch: no filtering,
 * zero outside) */
static __device__ inline float cu_tex_sample(unsigned long long obj, float u, float v, float w, int dims, int i, int c) {
  const cu_tex *t = (const cu_tex *)obj;
  if (dims == 0) return i < 0 || i >= t->w ? 0.0f : cu_tex_texel(t, i, 0, 0, c);
  if (t->normalized_coords) {
    u *= t->w;
    v *= t->h;
    w *= t->d;
  }
  if (!t->linear) {
    int x = cu_tex_idx((int)floorf(u), t->w, t->addr[0]);
    int y = dims > 1 ? cu_tex_idx((int)floorf(v), t->h, t->addr[1]) : 0;
    int z = dims > 2 ? cu_tex_idx((int)floorf(w), t->d, t->addr[2]) : 0;
    return cu_tex_texel(t, x, y, z, c);
  }
  float ub = u - 0.5f, vb = v - 0.5f, wb = w - 0.5f;
  float fu = floorf(ub), fv = floorf(vb), fw = floorf(wb);
  float a = rintf((ub - fu) * 256.0f) / 256.0f, bb = rintf((vb - fv) * 256.0f) / 256.0f,
        g = rintf((wb - fw) * 256.0f) / 256.0f;
  int x0 = cu_tex_idx((int)fu, t->w, t->addr[0]), x1 = cu_tex_idx((int)fu + 1, t->w, t->addr[0]);
  int y0 = 0, y1 = 0, z0 = 0, z1 = 0;
  if (dims > 1) {
    y0 = cu_tex_idx((int)fv, t->h, t->addr[1]);
    y1 = cu_tex_idx((int)fv + 1, t->h, t->addr[1]);
  } else bb = 0.0f;
  if (dims > 2) {
    z0 = cu_tex_idx((int)fw, t->d, t->addr[2]);
    z1 = cu_tex_idx((int)fw + 1, t->d, t->addr[2]);
  } else g = 0.0f;
  float r0 = (1 - bb) * ((1 - a) * cu_tex_texel(t, x0, y0, z0, c) + a * cu_tex_texel(t, x1, y0, z0, c)) +
             bb * ((1 - a) * cu_tex_texel(t, x0, y1, z0, c) + a * cu_tex_texel(t, x1, y1, z0, c));
  if (g == 0.0f) return r0;
  float r1 = (1 - bb) * ((1 - a) * cu_tex_texel(t, x0, y0, z1, c) + a * cu_tex_texel(t, x1, y0, z1, c)) +
             bb * ((1 - a) * cu_tex_texel(t, x0, y1, z1, c) + a * cu_tex_texel(t, x1, y1, z1, c));
  return (1 - g) * r0 + g * r1;
}

/* The result type: a scalar from channel 0, a vector from the channels.
 * (The null pointer only chooses the overload.) */
#define CU_TEX_SCALAR(T) \
  static __device__ inline T cu_tex_as(T *, unsigned long long o, float u, float v, float w, int n, int i) { \
    return (T)cu_tex_sample(o, u, v, w, n, i, 0); \
  }
CU_TEX_SCALAR(float)
CU_TEX_SCALAR(int)
CU_TEX_SCALAR(unsigned int)
CU_TEX_SCALAR(char)
CU_TEX_SCALAR(signed char)
CU_TEX_SCALAR(unsigned char)
CU_TEX_SCALAR(short)
CU_TEX_SCALAR(unsigned short)
#undef CU_TEX_SCALAR
static __device__ inline float2 cu_tex_as(float2 *, unsigned long long o, float u, float v, float w, int n, int i) {
  return make_float2(cu_tex_sample(o, u, v, w, n, i, 0), cu_tex_sample(o, u, v, w, n, i, 1));
}
static __device__ inline float4 cu_tex_as(float4 *, unsigned long long o, float u, float v, float w, int n, int i) {
  return make_float4(cu_tex_sample(o, u, v, w, n, i, 0), cu_tex_sample(o, u, v, w, n, i, 1),
                     cu_tex_sample(o, u, v, w, n, i, 2), cu_tex_sample(o, u, v, w, n, i, 3));
}
static __device__ inline uchar4 cu_tex_as(uchar4 *, unsigned long long o, float u, float v, float w, int n, int i) {
  return make_uchar4((unsigned char)cu_tex_sample(o, u, v, w, n, i, 0), (unsigned char)cu_tex_sample(o, u, v, w, n, i, 1),
                     (unsigned char)cu_tex_sample(o, u, v, w, n, i, 2), (unsigned char)cu_tex_sample(o, u, v, w, n, i, 3));
}

template <class T> static __device__ T tex1Dfetch(cudaTextureObject_t o, int x) {
  return cu_tex_as((T *)0, o, 0.0f, 0.0f, 0.0f, 0, x);
}
template <class T> static __device__ T tex1D(cudaTextureObject_t o, float x) {
  return cu_tex_as((T *)0, o, x, 0.5f, 0.5f, 1, 0);
}
template <class T> static __device__ T tex2D(cudaTextureObject_t o, float x, float y) {
  return cu_tex_as((T *)0, o, x, y, 0.5f, 2, 0);
}
template <class T> static __device__ T tex3D(cudaTextureObject_t o, float x, float y, float z) {
  return cu_tex_as((T *)0, o, x, y, z, 3, 0);
}
#endif
#endif
