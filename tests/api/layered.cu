// layered.cu: layered and cubemap textures, textures of every vector type,
// and surfaces: tex1DLayered, tex2DLayered, texCubemap (a direction picks a
// face), texCubemapLayered, tex2D<uchar2>/<short4>/<int1>, surf2Dwrite and
// surf2Dread with their boundary modes, surf3D, surf2DLayered, surf1D and
// surfCubemap; each read checked against the data the CPU put there.
#include <cstdio>
#include <cstring>

__global__ void layered(cudaTextureObject_t t1, cudaTextureObject_t t2, float *o, int w, int h, int layers) {
  int x = threadIdx.x, y = blockIdx.x;
  for (int l = 0; l < layers; l++) {
    o[(l * h + y) * w + x] = tex2DLayered<float>(t2, x + 0.5f, y + 0.5f, l);
    if (y == 0) o[layers * w * h + l * w + x] = tex1DLayered<float>(t1, x + 0.5f, l);
  }
}

// the direction through the centre of texel (x, y) of each face, as CUDA's
// table lays the faces out (the cuda-samples' simpleCubemapTexture)
__global__ void cube(cudaTextureObject_t t, cudaTextureObject_t tl, float *o, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  float u = ((x + 0.5f) / w) * 2 - 1, v = ((y + 0.5f) / w) * 2 - 1;
  float d[6][3] = {{1, -v, -u}, {-1, -v, u}, {u, 1, v}, {u, -1, -v}, {u, -v, 1}, {-u, -v, -1}};
  for (int f = 0; f < 6; f++) {
    o[(f * w + y) * w + x] = texCubemap<float>(t, d[f][0], d[f][1], d[f][2]);
    o[6 * w * w + (f * w + y) * w + x] = texCubemapLayered<float>(tl, d[f][0], d[f][1], d[f][2], 1);
  }
}

// surf1D: each element read and written back tripled; surfCubemap: each
// texel of each face written with its place, then read back
__global__ void surf_more(cudaSurfaceObject_t s1, cudaSurfaceObject_t sc, int *o, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  if (y == 0) surf1Dwrite(surf1Dread<int>(s1, x * 4) * 3, s1, x * 4);
  for (int f = 0; f < 6; f++) surfCubemapwrite(x + 10 * y + 100 * f, sc, x * 4, y, f);
  __syncthreads();
  for (int f = 0; f < 6; f++) {
    int v;
    surfCubemapread(&v, sc, x * 4, y, f);
    o[(f * w + y) * w + x] = v;
  }
}

__global__ void vectors(cudaTextureObject_t a, cudaTextureObject_t b, cudaTextureObject_t c, int *o, int w) {
  int x = threadIdx.x, y = blockIdx.x, *r = o + (y * w + x) * 7;
  uchar2 p = tex2D<uchar2>(a, x, y);
  short4 q = tex2D<short4>(b, x, y);
  int1 s = tex2D<int1>(c, x, y);
  r[0] = p.x, r[1] = p.y, r[2] = q.x, r[3] = q.y, r[4] = q.z, r[5] = q.w, r[6] = s.x;
}

__global__ void surfaces(cudaSurfaceObject_t s2, cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, float *o, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  float v = surf2Dread<float>(s2, x * 4, y);
  surf2Dwrite(v * 2 + 1, s2, x * 4, y);
  // outside: zeros, and clamped to the edge
  o[(y * w + x) * 4] = surf2Dread<float>(s2, (x + w) * 4, y, cudaBoundaryModeZero);
  o[(y * w + x) * 4 + 1] = surf2Dread<float>(s2, x * 4, y - h, cudaBoundaryModeClamp);
  surf2Dwrite(-1.0f, s2, -4, y, cudaBoundaryModeZero);   // nothing
  for (int z = 0; z < 3; z++) surf3Dwrite(make_int2(x + y, z), s3, x * 8, y, z);
  float r;
  surf2DLayeredread(&r, sl, x * 4, y, 1);
  surf2DLayeredwrite(r + 100, sl, x * 4, y, 0);
  o[(y * w + x) * 4 + 2] = r;
}

static int bad = 0;
#define EXPECT(c)                                                  \
  do {                                                             \
    if (!(c) && bad++ < 10) printf("%s:%d: %s\n", __FILE__, __LINE__, #c); \
  } while (0)

static cudaTextureObject_t tex_of(cudaArray_t a, bool norm) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc d;
  memset(&d, 0, sizeof d);
  d.normalizedCoords = norm;
  d.filterMode = cudaFilterModePoint;
  d.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &r, &d, NULL);
  return t;
}

static void put3d(cudaArray_t a, const void *h, size_t elem, size_t w, size_t hh, size_t d) {
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr((void *)h, w * elem, w, hh);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, hh, d);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
}

int main() {
  const int W = 16, H = 8, L = 3;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  static float h2[L * H * W], h1[L * W], hc[2 * 6 * W * W];
  for (int i = 0; i < L * H * W; i++) h2[i] = i * 0.25f;
  for (int i = 0; i < L * W; i++) h1[i] = -i - 0.5f;
  for (int i = 0; i < 2 * 6 * W * W; i++) hc[i] = i;
  cudaArray_t a2, a1, ac, acl;
  cudaMalloc3DArray(&a2, &fd, make_cudaExtent(W, H, L), cudaArrayLayered);
  cudaMalloc3DArray(&a1, &fd, make_cudaExtent(W, 0, L), cudaArrayLayered);
  cudaMalloc3DArray(&ac, &fd, make_cudaExtent(W, W, 6), cudaArrayCubemap);
  cudaMalloc3DArray(&acl, &fd, make_cudaExtent(W, W, 12), cudaArrayCubemap | cudaArrayLayered);
  cudaArray_t notcube;
  EXPECT(cudaMalloc3DArray(&notcube, &fd, make_cudaExtent(W, H, 6), cudaArrayCubemap) == cudaErrorInvalidValue);
  cudaGetLastError();
  put3d(a2, h2, 4, W, H, L);
  put3d(a1, h1, 4, W, 1, L);
  put3d(ac, hc, 4, W, W, 6);
  put3d(acl, hc, 4, W, W, 12);
  unsigned flags = 0;
  cudaExtent ex;
  cudaArrayGetInfo(NULL, &ex, &flags, acl);
  EXPECT(flags == (cudaArrayCubemap | cudaArrayLayered) && ex.depth == 12);

  float *o;
  cudaMallocManaged(&o, 2 * 6 * W * W * sizeof(float));
  layered<<<H, W>>>(tex_of(a1, false), tex_of(a2, false), o, W, H, L);
  cudaDeviceSynchronize();
  for (int i = 0; i < L * H * W; i++) EXPECT(o[i] == h2[i]);
  for (int i = 0; i < L * W; i++) EXPECT(o[L * H * W + i] == h1[i]);
  cube<<<W, W>>>(tex_of(ac, true), tex_of(acl, true), o, W);
  cudaDeviceSynchronize();
  for (int i = 0; i < 6 * W * W; i++) EXPECT(o[i] == hc[i] && o[6 * W * W + i] == hc[6 * W * W + i]);

  // vector texels
  cudaChannelFormatDesc d2 = cudaCreateChannelDesc<uchar2>(), d4 = cudaCreateChannelDesc<short4>(),
                        d1 = cudaCreateChannelDesc<int>();
  static unsigned char hu[H * W * 2];
  static short hs[H * W * 4];
  static int hi[H * W];
  for (int i = 0; i < H * W * 2; i++) hu[i] = (unsigned char)(i * 7);
  for (int i = 0; i < H * W * 4; i++) hs[i] = (short)(i * 3 - 500);
  for (int i = 0; i < H * W; i++) hi[i] = i * 1000 - 7;
  cudaArray_t au, as, ai;
  cudaMallocArray(&au, &d2, W, H);
  cudaMallocArray(&as, &d4, W, H);
  cudaMallocArray(&ai, &d1, W, H);
  cudaMemcpy2DToArray(au, 0, 0, hu, W * 2, W * 2, H, cudaMemcpyHostToDevice);
  cudaMemcpy2DToArray(as, 0, 0, hs, W * 8, W * 8, H, cudaMemcpyHostToDevice);
  cudaMemcpy2DToArray(ai, 0, 0, hi, W * 4, W * 4, H, cudaMemcpyHostToDevice);
  cudaChannelFormatDesc back;
  cudaGetChannelDesc(&back, as);
  EXPECT(back.x == 16 && back.w == 16 && back.f == cudaChannelFormatKindSigned);
  int *vo;
  cudaMallocManaged(&vo, H * W * 7 * sizeof(int));
  vectors<<<H, W>>>(tex_of(au, false), tex_of(as, false), tex_of(ai, false), vo, W);
  cudaDeviceSynchronize();
  for (int i = 0; i < H * W; i++) {
    int *r = vo + i * 7;
    EXPECT(r[0] == hu[i * 2] && r[1] == hu[i * 2 + 1]);
    EXPECT(r[2] == hs[i * 4] && r[3] == hs[i * 4 + 1] && r[4] == hs[i * 4 + 2] && r[5] == hs[i * 4 + 3]);
    EXPECT(r[6] == hi[i]);
  }

  // surfaces
  cudaArray_t s2, s3, sl;
  cudaChannelFormatDesc dint2 = cudaCreateChannelDesc<int2>();
  cudaMallocArray(&s2, &fd, W, H, cudaArraySurfaceLoadStore);
  cudaMalloc3DArray(&s3, &dint2, make_cudaExtent(W, H, 3), cudaArraySurfaceLoadStore);
  cudaMalloc3DArray(&sl, &fd, make_cudaExtent(W, H, 2), cudaArraySurfaceLoadStore | cudaArrayLayered);
  cudaMemcpy2DToArray(s2, 0, 0, h2, W * 4, W * 4, H, cudaMemcpyHostToDevice);
  put3d(sl, h2, 4, W, H, 2);
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  cudaSurfaceObject_t so2, so3, sol, none;
  r.res.array.array = s2;
  cudaCreateSurfaceObject(&so2, &r);
  r.res.array.array = s3;
  cudaCreateSurfaceObject(&so3, &r);
  r.res.array.array = sl;
  cudaCreateSurfaceObject(&sol, &r);
  r.res.array.array = a2;   // made without cudaArraySurfaceLoadStore
  EXPECT(cudaCreateSurfaceObject(&none, &r) == cudaErrorInvalidValue);
  cudaGetLastError();
  surfaces<<<H, W>>>(so2, so3, sol, o, W, H);
  cudaDeviceSynchronize();
  static float g2[H * W], gl[2 * H * W];
  static int g3[3 * H * W * 2];
  cudaMemcpy2DFromArray(g2, W * 4, s2, 0, 0, W * 4, H, cudaMemcpyDeviceToHost);
  cudaMemcpy3DParms p = {};
  p.srcArray = s3;
  p.dstPtr = make_cudaPitchedPtr(g3, W * 8, W, H);
  p.extent = make_cudaExtent(W, H, 3);
  p.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3D(&p);
  p.srcArray = sl;
  p.dstPtr = make_cudaPitchedPtr(gl, W * 4, W, H);
  p.extent = make_cudaExtent(W, H, 2);
  cudaMemcpy3D(&p);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int i = y * W + x;
      EXPECT(g2[i] == h2[i] * 2 + 1);
      EXPECT(o[i * 4] == 0);
      EXPECT(o[i * 4 + 1] == h2[x] || o[i * 4 + 1] == h2[x] * 2 + 1);   // row 0, before or after its write
      EXPECT(o[i * 4 + 2] == h2[H * W + i] && gl[i] == h2[H * W + i] + 100);
      for (int z = 0; z < 3; z++) EXPECT(g3[(z * H * W + i) * 2] == x + y && g3[(z * H * W + i) * 2 + 1] == z);
    }
  {   // surf1D, surfCubemap
    const int C = 8;
    cudaChannelFormatDesc di = cudaCreateChannelDesc<int>();
    cudaArray_t s1, sc;
    cudaMallocArray(&s1, &di, C, 0, cudaArraySurfaceLoadStore);
    cudaMalloc3DArray(&sc, &di, make_cudaExtent(C, C, 6), cudaArraySurfaceLoadStore | cudaArrayCubemap);
    int h1[C], g1[C];
    for (int i = 0; i < C; i++) h1[i] = 7 * i - 3;
    cudaMemcpyToArray(s1, 0, 0, h1, sizeof h1, cudaMemcpyHostToDevice);
    cudaSurfaceObject_t so1, soc;
    r.res.array.array = s1;
    EXPECT(cudaCreateSurfaceObject(&so1, &r) == cudaSuccess);
    r.res.array.array = sc;
    EXPECT(cudaCreateSurfaceObject(&soc, &r) == cudaSuccess);
    int *oc;
    cudaMallocManaged(&oc, 6 * C * C * sizeof(int));
    surf_more<<<C, C>>>(so1, soc, oc, C);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    cudaMemcpyFromArray(g1, s1, 0, 0, sizeof g1, cudaMemcpyDeviceToHost);
    static int gc[6 * C * C];
    cudaMemcpy3DParms q = {};
    q.srcArray = sc;
    q.dstPtr = make_cudaPitchedPtr(gc, C * 4, C, C);
    q.extent = make_cudaExtent(C, C, 6);
    q.kind = cudaMemcpyDeviceToHost;
    EXPECT(cudaMemcpy3D(&q) == cudaSuccess);
    for (int i = 0; i < C; i++) EXPECT(g1[i] == h1[i] * 3);
    for (int f = 0; f < 6; f++)
      for (int y = 0; y < C; y++)
        for (int x = 0; x < C; x++) {
          int i = (f * C + y) * C + x;
          EXPECT(oc[i] == x + 10 * y + 100 * f && gc[i] == x + 10 * y + 100 * f);
        }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
