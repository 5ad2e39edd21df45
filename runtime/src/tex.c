/* tex.c: CUDA arrays and texture objects. An array is device memory with
 * rows of width * element bytes; a texture object is a cu_tex (cucc_tex.h)
 * that device code reads through texture_indirect_functions.h. */
#include "rt.h"
#include "cucc_tex.h"

struct cudaArray {
  struct cudaChannelFormatDesc desc;
  size_t w, h, d, elem;   /* texels (d: slices, or the layers or faces), element bytes */
  unsigned flags;         /* cudaArrayLayered, cudaArrayCubemap, cudaArraySurfaceLoadStore... */
  char *data;
};

static size_t elem_of(const struct cudaChannelFormatDesc *c) { return (size_t)(c->x + c->y + c->z + c->w) / 8; }

/* CUDA's channel formats: 1, 2 or 4 channels of 8, 16 or 32 bits alike */
static bool format_ok(const struct cudaChannelFormatDesc *c) {
  int n = (c->x > 0) + (c->y > 0) + (c->z > 0) + (c->w > 0);
  if ((unsigned)c->f > cudaChannelFormatKindFloat || (n != 1 && n != 2 && n != 4)) return false;
  if (c->x != 8 && c->x != 16 && c->x != 32) return false;
  if ((c->y && c->y != c->x) || (c->z && c->z != c->x) || (c->w && c->w != c->x)) return false;
  return c->f != cudaChannelFormatKindFloat || c->x != 8;
}

cudaError_t cudaMalloc3DArray(cudaArray_t *out, const struct cudaChannelFormatDesc *desc, struct cudaExtent e,
                              unsigned int flags) {
  RT_API();
  if (!out || !desc || !format_ok(desc) ||
      flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather) ||
      !e.width)
    return rt_err(cudaErrorInvalidValue);
  /* a cubemap has square faces, 6 (a layered one, 6 per layer) */
  if ((flags & cudaArrayCubemap) &&
      (e.width != e.height || !e.depth || e.depth % 6 || (!(flags & cudaArrayLayered) && e.depth != 6)))
    return rt_err(cudaErrorInvalidValue);
  if ((flags & cudaArrayLayered) && !e.depth) return rt_err(cudaErrorInvalidValue);
  struct cudaArray *a = calloc(1, sizeof *a);
  if (!a) return rt_err(cudaErrorMemoryAllocation);
  a->desc = *desc;
  a->elem = elem_of(desc);
  a->flags = flags;
  a->w = e.width;
  a->h = e.height ? e.height : 1;
  a->d = e.depth ? e.depth : 1;
  cudaError_t err = cudaMalloc((void **)&a->data, a->w * a->h * a->d * a->elem);
  if (err) {
    free(a);
    return err;
  }
  *out = a;
  return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t *out, const struct cudaChannelFormatDesc *desc, size_t w, size_t h,
                            unsigned int flags) {
  RT_API();
  return cudaMalloc3DArray(out, desc, make_cudaExtent(w, h, 0), flags);
}

cudaError_t cudaFreeArray(cudaArray_t a) {
  RT_API();
  if (!a) return cudaSuccess;
  cudaError_t e = cudaFree(a->data);
  if (e) return e;
  free(a);
  return cudaSuccess;
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *e, unsigned int *flags,
                             cudaArray_t a) {
  RT_API();
  if (!a) return rt_err(cudaErrorInvalidResourceHandle);
  if (desc) *desc = a->desc;
  if (e) *e = make_cudaExtent(a->w, a->h == 1 && a->d == 1 ? 0 : a->h, a->d == 1 ? 0 : a->d);
  if (flags) *flags = a->flags;
  return cudaSuccess;
}

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f) {
  RT_API();
  struct cudaChannelFormatDesc c = {x, y, z, w, f};
  return c;
}

/* The array as a pitched pointer, for the copies (cudaMemcpy3D and 2-D) */
struct cudaPitchedPtr rt_array_ptr(cudaArray_t a, size_t *elem) {
  *elem = a->elem;
  return make_cudaPitchedPtr(a->data, a->w * a->elem, a->w, a->h);
}

/* Offsets and widths in bytes, as CUDA's array copies take them. */
static cudaError_t arr2d(cudaArray_t a, size_t wo, size_t ho, size_t width, size_t height, char **p) {
  if (!a) return rt_err(cudaErrorInvalidResourceHandle);
  size_t row = a->w * a->elem;
  if (wo + width > row || ho + height > a->h * a->d) return rt_err(cudaErrorInvalidValue);
  *p = a->data + ho * row + wo;
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t spitch, size_t w,
                                size_t h, enum cudaMemcpyKind kind) {
  RT_API();
  char *p = NULL;
  cudaError_t e = arr2d(dst, wo, ho, w, h, &p);
  return e ? e : cudaMemcpy2D(p, dst->w * dst->elem, src, spitch, w, h, kind);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wo, size_t ho, size_t w,
                                  size_t h, enum cudaMemcpyKind kind) {
  RT_API();
  char *p = NULL;
  cudaError_t e = arr2d((cudaArray_t)src, wo, ho, w, h, &p);
  return e ? e : cudaMemcpy2D(dst, dpitch, p, src->w * src->elem, w, h, kind);
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t spitch,
                                     size_t w, size_t h, enum cudaMemcpyKind kind, cudaStream_t s) {
  RT_API();
  char *p = NULL;
  cudaError_t e = arr2d(dst, wo, ho, w, h, &p);
  return e ? e : cudaMemcpy2DAsync(p, dst->w * dst->elem, src, spitch, w, h, kind, s);
}

/* The deprecated linear forms: count bytes from the offset on, row after row. */
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t count,
                              enum cudaMemcpyKind kind) {
  RT_API();
  if (!dst) return rt_err(cudaErrorInvalidResourceHandle);
  size_t off = ho * dst->w * dst->elem + wo, size = dst->w * dst->h * dst->d * dst->elem;
  if (off > size || count > size - off) return rt_err(cudaErrorInvalidValue);
  return cudaMemcpy(dst->data + off, src, count, kind);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wo, size_t ho, size_t count,
                                enum cudaMemcpyKind kind) {
  RT_API();
  if (!src) return rt_err(cudaErrorInvalidResourceHandle);
  size_t off = ho * src->w * src->elem + wo, size = src->w * src->h * src->d * src->elem;
  if (off > size || count > size - off) return rt_err(cudaErrorInvalidValue);
  return cudaMemcpy(dst, src->data + off, count, kind);
}

/* ---- texture and surface objects ---- */

/* an array's texels as a cu_tex: layered and cubemap arrays are layers
 * (faces) of one slice each, the others slices of one layer */
static void fill_array(cu_tex *t, cudaArray_t a) {
  bool layers = a->flags & (cudaArrayLayered | cudaArrayCubemap);
  t->data = a->data;
  t->w = (int)a->w;
  t->h = (int)a->h;
  t->d = layers ? 1 : (int)a->d;
  t->layers = layers ? (int)a->d : 1;
  t->pitch = a->w * a->elem;
  t->slice = t->lstride = t->pitch * a->h;
  t->elem = (int)a->elem;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *out, const struct cudaResourceDesc *r,
                                    const struct cudaTextureDesc *td, const struct cudaResourceViewDesc *view) {
  RT_API();
  if (!out || !r || !td || view) return rt_err(cudaErrorInvalidValue);
  cu_tex *t = calloc(1, sizeof *t);
  if (!t) return rt_err(cudaErrorMemoryAllocation);
  const struct cudaChannelFormatDesc *c = NULL;
  t->h = t->d = t->layers = 1;
  switch (r->resType) {
  case cudaResourceTypeArray: {
    cudaArray_t a = r->res.array.array;
    if (!a) break;
    c = &a->desc;
    fill_array(t, a);
    break;
  }
  case cudaResourceTypeLinear:
    c = &r->res.linear.desc;
    if (!r->res.linear.devPtr || !format_ok(c)) {
      c = NULL;
      break;
    }
    t->data = r->res.linear.devPtr;
    t->w = (int)(r->res.linear.sizeInBytes / elem_of(c));
    t->pitch = t->slice = r->res.linear.sizeInBytes;
    break;
  case cudaResourceTypePitch2D:
    c = &r->res.pitch2D.desc;
    if (!r->res.pitch2D.devPtr || !format_ok(c) || r->res.pitch2D.pitchInBytes < r->res.pitch2D.width * elem_of(c)) {
      c = NULL;
      break;
    }
    t->data = r->res.pitch2D.devPtr;
    t->w = (int)r->res.pitch2D.width;
    t->h = (int)r->res.pitch2D.height;
    t->pitch = r->res.pitch2D.pitchInBytes;
    t->slice = t->pitch * t->h;
    break;
  default:
    break;
  }
  /* linear filtering and normalized reads need float results */
  if (!c || (td->filterMode == cudaFilterModeLinear && c->f != cudaChannelFormatKindFloat &&
             td->readMode != cudaReadModeNormalizedFloat)) {
    free(t);
    return rt_err(cudaErrorInvalidValue);
  }
  t->nch = (c->x > 0) + (c->y > 0) + (c->z > 0) + (c->w > 0);
  t->bits = c->x;
  t->kind = c->f;
  t->elem = (int)elem_of(c);
  /* wrap and mirror exist for normalized coordinates only; with texel
   * coordinates the hardware clamps */
  for (int i = 0; i < 3; i++)
    t->addr[i] = !td->normalizedCoords && (td->addressMode[i] == cudaAddressModeWrap ||
                                            td->addressMode[i] == cudaAddressModeMirror)
                     ? cudaAddressModeClamp
                     : td->addressMode[i];
  t->linear = td->filterMode == cudaFilterModeLinear;
  t->normalized_read = td->readMode == cudaReadModeNormalizedFloat && c->f != cudaChannelFormatKindFloat && c->x < 32;
  t->normalized_coords = td->normalizedCoords != 0;
  memcpy(t->border, td->borderColor, sizeof t->border);
  rt_ck_alloc(t, sizeof *t, RT_CK_RT, NULL);   /* (--check: device code reads the descriptor) */
  *out = (cudaTextureObject_t)(uintptr_t)t;
  return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t t) {
  RT_API();
  rt_sync_all();   /* kernels in flight may still read it */
  rt_ck_free((void *)(uintptr_t)t, RT_CK_RT);
  free((cu_tex *)(uintptr_t)t);
  return cudaSuccess;
}

/* A surface: an array made with cudaArraySurfaceLoadStore, read and
 * written by byte offset in its rows. */
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *out, const struct cudaResourceDesc *r) {
  RT_API();
  if (!out || !r || r->resType != cudaResourceTypeArray || !r->res.array.array) return rt_err(cudaErrorInvalidValue);
  cudaArray_t a = r->res.array.array;
  if (!(a->flags & cudaArraySurfaceLoadStore)) return rt_err(cudaErrorInvalidValue);
  cu_tex *t = calloc(1, sizeof *t);
  if (!t) return rt_err(cudaErrorMemoryAllocation);
  fill_array(t, a);
  t->nch = (a->desc.x > 0) + (a->desc.y > 0) + (a->desc.z > 0) + (a->desc.w > 0);
  t->bits = a->desc.x;
  t->kind = a->desc.f;
  rt_ck_alloc(t, sizeof *t, RT_CK_RT, NULL);
  *out = (cudaSurfaceObject_t)(uintptr_t)t;
  return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t s) {
  RT_API();
  rt_sync_all();
  rt_ck_free((void *)(uintptr_t)s, RT_CK_RT);
  free((cu_tex *)(uintptr_t)s);
  return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t a) {
  RT_API();
  if (!desc) return rt_err(cudaErrorInvalidValue);
  if (!a) return rt_err(cudaErrorInvalidResourceHandle);
  *desc = a->desc;
  return cudaSuccess;
}
