/* texture_indirect_functions.h: fetches from texture objects (our own
 * header): tex1Dfetch, tex1D, tex2D, tex3D, tex1DLayered, tex2DLayered,
 * texCubemap, texCubemapLayered, and the surface functions (surf*read,
 * surf*write). Plain device code that reads the cu_tex a
 * cudaTextureObject_t points to (cucc_tex.h), with CUDA's address modes,
 * point and linear filtering (weights in 1/256 steps, as the hardware's
 * 8-bit fraction) and both read modes. Results are scalars or vectors of
 * 1, 2 or 4 components of every type a texture holds. */
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

/* channel c of texel (x, y, z) of layer l, converted as the read mode says */
static __device__ inline float cu_tex_texel(const cu_tex *t, int l, int x, int y, int z, int c) {
  if (x < 0 || y < 0 || z < 0) return t->border[c];
  if (c >= t->nch) return 0.0f;
  const char *p = t->data + (unsigned long long)l * t->lstride + (unsigned long long)z * t->slice +
                  (unsigned long long)y * t->pitch +
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
 * dimensions, in layer i (a layered texture: clamped to its layers);
 * dims 0: texel i of linear memory (tex1Dfetch: no filtering, zero
 * outside) */
static __device__ inline float cu_tex_sample(unsigned long long obj, float u, float v, float w, int dims, int i, int c) {
  const cu_tex *t = (const cu_tex *)obj;
  if (dims == 0) return i < 0 || i >= t->w ? 0.0f : cu_tex_texel(t, 0, i, 0, 0, c);
  int l = i < 0 ? 0 : i >= t->layers ? t->layers - 1 : i;
  if (t->normalized_coords) {
    u *= t->w;
    v *= t->h;
    w *= t->d;
  }
  if (!t->linear) {
    int x = cu_tex_idx((int)floorf(u), t->w, t->addr[0]);
    int y = dims > 1 ? cu_tex_idx((int)floorf(v), t->h, t->addr[1]) : 0;
    int z = dims > 2 ? cu_tex_idx((int)floorf(w), t->d, t->addr[2]) : 0;
    return cu_tex_texel(t, l, x, y, z, c);
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
  float r0 = (1 - bb) * ((1 - a) * cu_tex_texel(t, l, x0, y0, z0, c) + a * cu_tex_texel(t, l, x1, y0, z0, c)) +
             bb * ((1 - a) * cu_tex_texel(t, l, x0, y1, z0, c) + a * cu_tex_texel(t, l, x1, y1, z0, c));
  if (g == 0.0f) return r0;
  float r1 = (1 - bb) * ((1 - a) * cu_tex_texel(t, l, x0, y0, z1, c) + a * cu_tex_texel(t, l, x1, y0, z1, c)) +
             bb * ((1 - a) * cu_tex_texel(t, l, x0, y1, z1, c) + a * cu_tex_texel(t, l, x1, y1, z1, c));
  return (1 - g) * r0 + g * r1;
}

/* The result type: a scalar from channel 0, a vector from the channels.
 * (The null pointer only chooses the overload.) */
#define CU_TEX_T(T, B)                                                                                     \
  static __device__ inline T cu_tex_as(T *, unsigned long long o, float u, float v, float w, int n, int i) { \
    return (T)cu_tex_sample(o, u, v, w, n, i, 0);                                                           \
  }                                                                                                         \
  static __device__ inline B##1 cu_tex_as(B##1 *, unsigned long long o, float u, float v, float w, int n, int i) { \
    return make_##B##1((T)cu_tex_sample(o, u, v, w, n, i, 0));                                              \
  }                                                                                                         \
  static __device__ inline B##2 cu_tex_as(B##2 *, unsigned long long o, float u, float v, float w, int n, int i) { \
    return make_##B##2((T)cu_tex_sample(o, u, v, w, n, i, 0), (T)cu_tex_sample(o, u, v, w, n, i, 1));         \
  }                                                                                                         \
  static __device__ inline B##4 cu_tex_as(B##4 *, unsigned long long o, float u, float v, float w, int n, int i) { \
    return make_##B##4((T)cu_tex_sample(o, u, v, w, n, i, 0), (T)cu_tex_sample(o, u, v, w, n, i, 1),         \
                       (T)cu_tex_sample(o, u, v, w, n, i, 2), (T)cu_tex_sample(o, u, v, w, n, i, 3));         \
  }
CU_TEX_T(float, float)
CU_TEX_T(int, int)
CU_TEX_T(unsigned int, uint)
CU_TEX_T(char, char)
CU_TEX_T(unsigned char, uchar)
CU_TEX_T(short, short)
CU_TEX_T(unsigned short, ushort)
#undef CU_TEX_T
static __device__ inline signed char cu_tex_as(signed char *, unsigned long long o, float u, float v, float w, int n,
                                               int i) {
  return (signed char)cu_tex_sample(o, u, v, w, n, i, 0);
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
template <class T> static __device__ T tex1DLayered(cudaTextureObject_t o, float x, int layer) {
  return cu_tex_as((T *)0, o, x, 0.5f, 0.5f, 1, layer);
}
template <class T> static __device__ T tex2DLayered(cudaTextureObject_t o, float x, float y, int layer) {
  return cu_tex_as((T *)0, o, x, y, 0.5f, 2, layer);
}
/* A cubemap: the direction's major axis picks the face (+x, -x, +y, -y,
 * +z, -z), the other two its coordinates in [0, 1] (the usual table of
 * CUDA's programming guide); faces are not filtered across their edges. */
static __device__ inline int cu_tex_cube(unsigned long long o, float x, float y, float z, float *s, float *t) {
  float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, sc, tc;
  int f;
  if (ax >= ay && ax >= az) f = x >= 0 ? 0 : 1, m = ax, sc = x >= 0 ? -z : z, tc = -y;
  else if (ay >= az) f = y >= 0 ? 2 : 3, m = ay, sc = x, tc = y >= 0 ? z : -z;
  else f = z >= 0 ? 4 : 5, m = az, sc = z >= 0 ? x : -x, tc = -y;
  const cu_tex *c = (const cu_tex *)o;
  *s = (sc / m + 1.0f) * 0.5f * (c->normalized_coords ? 1.0f : (float)c->w);
  *t = (tc / m + 1.0f) * 0.5f * (c->normalized_coords ? 1.0f : (float)c->h);
  return f;
}
template <class T> static __device__ T texCubemap(cudaTextureObject_t o, float x, float y, float z) {
  float s, t;
  int f = cu_tex_cube(o, x, y, z, &s, &t);
  return cu_tex_as((T *)0, o, s, t, 0.5f, 2, f);
}
template <class T> static __device__ T texCubemapLayered(cudaTextureObject_t o, float x, float y, float z, int layer) {
  float s, t;
  int f = cu_tex_cube(o, x, y, z, &s, &t);
  return cu_tex_as((T *)0, o, s, t, 0.5f, 2, layer * 6 + f);
}
/* the forms that return through a pointer */
template <class T> static __device__ void tex1Dfetch(T *r, cudaTextureObject_t o, int x) { *r = tex1Dfetch<T>(o, x); }
template <class T> static __device__ void tex1D(T *r, cudaTextureObject_t o, float x) { *r = tex1D<T>(o, x); }
template <class T> static __device__ void tex2D(T *r, cudaTextureObject_t o, float x, float y) { *r = tex2D<T>(o, x, y); }
template <class T> static __device__ void tex3D(T *r, cudaTextureObject_t o, float x, float y, float z) {
  *r = tex3D<T>(o, x, y, z);
}

/* ---- surfaces: x counts bytes, y and z rows and slices; outside the
 * surface a read gives zeros and a write does nothing (cudaBoundaryModeZero,
 * and cudaBoundaryModeTrap, whose fault is not modelled), or both clamp to
 * the edge (cudaBoundaryModeClamp) ---- */
static __device__ inline char *cu_surf_at(unsigned long long o, int x, int y, int z, int l, int size, int mode) {
  const cu_tex *t = (const cu_tex *)o;
  int row = t->w * t->elem;
  if (mode == cudaBoundaryModeClamp) {
    x = x < 0 ? 0 : x > row - size ? row - size : x;
    y = y < 0 ? 0 : y >= t->h ? t->h - 1 : y;
    z = z < 0 ? 0 : z >= t->d ? t->d - 1 : z;
    l = l < 0 ? 0 : l >= t->layers ? t->layers - 1 : l;
  } else if (x < 0 || x + size > row || y < 0 || y >= t->h || z < 0 || z >= t->d || l < 0 || l >= t->layers)
    return 0;
  return (char *)t->data + (unsigned long long)l * t->lstride + (unsigned long long)z * t->slice +
         (unsigned long long)y * t->pitch + x;
}
#define CU_SURF_RW(NAME, ARGS, XYZL)                                                                            \
  template <class T> static __device__ T NAME##read(cudaSurfaceObject_t o, ARGS,                             \
                                                      cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {      \
    char *p = cu_surf_at(o, XYZL, (int)sizeof(T), m);                                                          \
    if (p) return *(const T *)p;                                                                               \
    T zero;                                                                                                    \
    for (int i = 0; i < (int)sizeof(T); i++) ((char *)&zero)[i] = 0;                                           \
    return zero;                                                                                               \
  }                                                                                                            \
  template <class T> static __device__ void NAME##read(T *r, cudaSurfaceObject_t o, ARGS,                    \
                                                        cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {    \
    *r = NAME##read<T>(o, XYZL_ARGS_##NAME, m);                                                                \
  }                                                                                                            \
  template <class T> static __device__ void NAME##write(T v, cudaSurfaceObject_t o, ARGS,                    \
                                                         cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {   \
    char *p = cu_surf_at(o, XYZL, (int)sizeof(T), m);                                                          \
    if (p) *(T *)p = v;                                                                                        \
  }
#define CU_ARGS(...) __VA_ARGS__
#define XYZL_ARGS_surf1D x
#define XYZL_ARGS_surf2D x, y
#define XYZL_ARGS_surf3D x, y, z
#define XYZL_ARGS_surf1DLayered x, layer
#define XYZL_ARGS_surf2DLayered x, y, layer
#define XYZL_ARGS_surfCubemap x, y, face
#define XYZL_ARGS_surfCubemapLayered x, y, layerFace
CU_SURF_RW(surf1D, int x, CU_ARGS(x, 0, 0, 0))
CU_SURF_RW(surf2D, CU_ARGS(int x, int y), CU_ARGS(x, y, 0, 0))
CU_SURF_RW(surf3D, CU_ARGS(int x, int y, int z), CU_ARGS(x, y, z, 0))
CU_SURF_RW(surf1DLayered, CU_ARGS(int x, int layer), CU_ARGS(x, 0, 0, layer))
CU_SURF_RW(surf2DLayered, CU_ARGS(int x, int y, int layer), CU_ARGS(x, y, 0, layer))
CU_SURF_RW(surfCubemap, CU_ARGS(int x, int y, int face), CU_ARGS(x, y, 0, face))
CU_SURF_RW(surfCubemapLayered, CU_ARGS(int x, int y, int layerFace), CU_ARGS(x, y, 0, layerFace))
#undef CU_SURF_RW
#undef CU_ARGS
#undef XYZL_ARGS_surf1D
#undef XYZL_ARGS_surf2D
#undef XYZL_ARGS_surf3D
#undef XYZL_ARGS_surf1DLayered
#undef XYZL_ARGS_surf2DLayered
#undef XYZL_ARGS_surfCubemap
#undef XYZL_ARGS_surfCubemapLayered
#endif
#endif
