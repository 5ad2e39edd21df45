/* cucc_tex.h: what a texture object is, shared by the runtime (tex.c,
 * which fills it from cudaCreateTextureObject's descriptors) and the
 * device functions that fetch from it (texture_indirect_functions.h).
 * A cudaTextureObject_t (and a cudaSurfaceObject_t) is the address of one;
 * the device reads it where the host wrote it, since device memory is host
 * memory. */
#ifndef CUCC_TEX_H
#define CUCC_TEX_H
typedef struct cu_tex {
  const char *data;
  int w, h, d;              /* texels (h = d = 1 for fewer dimensions) */
  unsigned long long pitch, slice;   /* bytes between rows, between slices */
  int nch, bits, kind;      /* channels, bits per channel, cudaChannelFormatKind */
  int addr[3];              /* cudaTextureAddressMode per dimension */
  int linear;               /* cudaFilterModeLinear */
  int normalized_read;      /* cudaReadModeNormalizedFloat */
  int normalized_coords;
  float border[4];
  int layers;               /* layered or cubemap: layers (faces) of w x h */
  unsigned long long lstride;   /* bytes between layers */
  int elem;                 /* bytes per texel */
} cu_tex;
#endif
