// textures.cu: CUDA arrays and texture objects: arrays filled by every copy
// form and read back, 2-D float textures with point and linear filtering,
// normalized and unnormalized coordinates and each address mode, 8-bit
// RGBA read as normalized floats, tex1Dfetch from linear memory and a
// pitched 2-D resource. The expected values are computed on the host.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

static int bad = 0;
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); exit(1); } } while (0)
#define EXPECT(cond) do { if (!(cond)) { printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond); bad++; } } while (0)

const int W = 16, H = 8;

__global__ void sample2d(float *out, cudaTextureObject_t t, float x0, float y0, float scale) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * blockDim.x + x] = tex2D<float>(t, x0 + x * scale, y0 + y * scale);
}
__global__ void sample_rgba(float4 *out, cudaTextureObject_t t) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * blockDim.x + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);
}
__global__ void fetch1d(int *out, cudaTextureObject_t t, int n) {
  int i = threadIdx.x - 2;   // two before the start, some past the end
  out[threadIdx.x] = tex1Dfetch<int>(t, i) + (i >= n ? 1000 : 0);
}

static float img(int x, int y) { return (float)(x * 3 + y * 50); }

// the texel under an address mode (true: inside or mapped inside)
static bool addr(int &i, int n, cudaTextureAddressMode m) {
  if (m == cudaAddressModeWrap) i = ((i % n) + n) % n;
  else if (m == cudaAddressModeMirror) { int k = ((i % (2 * n)) + 2 * n) % (2 * n); i = k < n ? k : 2 * n - 1 - k; }
  else if (m == cudaAddressModeClamp) i = i < 0 ? 0 : i >= n ? n - 1 : i;
  else return i >= 0 && i < n;
  return true;
}
static float texel(int x, int y, cudaTextureAddressMode m) {
  return addr(x, W, m) && addr(y, H, m) ? img(x, y) : 0.0f;
}
static float ref(float u, float v, bool linear, cudaTextureAddressMode m) {
  if (!linear) return texel((int)floorf(u), (int)floorf(v), m);
  float ub = u - 0.5f, vb = v - 0.5f;
  int x = (int)floorf(ub), y = (int)floorf(vb);
  float a = ub - x, b = vb - y;   // multiples of 1/256 here: the hardware's steps are exact
  return (1 - b) * ((1 - a) * texel(x, y, m) + a * texel(x + 1, y, m)) +
         b * ((1 - a) * texel(x, y + 1, m) + a * texel(x + 1, y + 1, m));
}

static cudaTextureObject_t make_tex(cudaArray_t a, bool linear, bool norm, cudaTextureAddressMode m) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = m;
  td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = norm;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
  return t;
}

int main() {
  float h[W * H], back[W * H];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) h[y * W + x] = img(x, y);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  EXPECT(fd.x == 32 && fd.y == 0 && fd.f == cudaChannelFormatKindFloat);
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &fd, W, H));
  // rows 0-3 by the linear form, rows 4-7 by the 2-D form, read back by 3-D
  CHECK(cudaMemcpyToArray(a, 0, 0, h, 4 * W * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DToArray(a, 0, 4, h + 4 * W, W * sizeof(float), W * sizeof(float), 4, cudaMemcpyHostToDevice));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcArray = a;
  p.dstPtr = make_cudaPitchedPtr(back, W * sizeof(float), W, H);
  p.extent = make_cudaExtent(W, H, 1);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&p));
  EXPECT(!memcmp(h, back, sizeof h));
  float part[3];
  CHECK(cudaMemcpyFromArray(part, a, 2 * sizeof(float), 5, sizeof part, cudaMemcpyDeviceToHost));
  EXPECT(part[0] == img(2, 5) && part[2] == img(4, 5));

  // filtering, coordinates and address modes; samples start off the texture
  const int ox = 24, oy = 12;
  float *d;
  CHECK(cudaMallocManaged(&d, ox * oy * sizeof(float)));
  cudaTextureAddressMode modes[] = {cudaAddressModeClamp, cudaAddressModeWrap, cudaAddressModeMirror,
                                    cudaAddressModeBorder};
  for (int lin = 0; lin < 2; lin++)
    for (int norm = 0; norm < 2; norm++)
      for (cudaTextureAddressMode m : modes) {
        cudaTextureObject_t t = make_tex(a, lin, norm, m);
        float x0 = -4.25f, y0 = -2.75f, step = 1.25f;   // unnormalized: 1/4 texel phases
        // wrap and mirror need normalized coordinates: with texel coordinates they clamp
        cudaTextureAddressMode em = !norm && (m == cudaAddressModeWrap || m == cudaAddressModeMirror) ? cudaAddressModeClamp : m;
        if (norm) sample2d<<<oy, ox>>>(d, t, x0 / W, y0 / H, step / W);   // (v steps by step * H / W)
        else sample2d<<<oy, ox>>>(d, t, x0, y0, step);
        CHECK(cudaDeviceSynchronize());
        int wrong = 0;
        for (int y = 0; y < oy; y++)
          for (int x = 0; x < ox; x++) {
            float u = x0 + x * step, v = norm ? (y0 / H + y * step / W) * H : y0 + y * step;
            float want = ref(u, v, lin, em), got = d[y * ox + x];
            if (fabsf(got - want) > 1e-3f * (1 + fabsf(want))) {
              if (wrong++ < 3) printf("lin %d norm %d mode %d (%d,%d): %g, want %g\n", lin, norm, m, x, y, got, want);
            }
          }
        EXPECT(wrong == 0);
        CHECK(cudaDestroyTextureObject(t));
      }

  // 8-bit RGBA, normalized reads
  uchar4 rgba[W * H];
  for (int i = 0; i < W * H; i++) rgba[i] = make_uchar4(i, 255 - i, 2 * i, 255);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t ca;
  CHECK(cudaMallocArray(&ca, &cd, W, H));
  CHECK(cudaMemcpy2DToArray(ca, 0, 0, rgba, W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = ca;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.readMode = cudaReadModeNormalizedFloat;
  td.filterMode = cudaFilterModePoint;
  cudaTextureObject_t ct;
  CHECK(cudaCreateTextureObject(&ct, &r, &td, NULL));
  float4 *d4;
  CHECK(cudaMallocManaged(&d4, W * H * sizeof(float4)));
  sample_rgba<<<H, W>>>(d4, ct);
  CHECK(cudaDeviceSynchronize());
  int wrong = 0;
  for (int i = 0; i < W * H; i++)
    wrong += fabsf(d4[i].x - (i & 255) / 255.0f) > 1e-6f || fabsf(d4[i].y - (255 - i) / 255.0f) > 1e-6f ||
             fabsf(d4[i].z - (2 * i & 255) / 255.0f) > 1e-6f || d4[i].w != 1.0f;
  EXPECT(wrong == 0);
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;   // linear filtering of integers needs normalized reads
  cudaTextureObject_t no;
  EXPECT(cudaCreateTextureObject(&no, &r, &td, NULL) == cudaErrorInvalidValue);
  (void)cudaGetLastError();

  // tex1Dfetch from linear memory: zero outside
  const int n = 20;
  int *lin, *out;
  CHECK(cudaMalloc(&lin, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, 32 * sizeof(int)));
  int hv[n];
  for (int i = 0; i < n; i++) hv[i] = 7 * i + 1;
  CHECK(cudaMemcpy(lin, hv, sizeof hv, cudaMemcpyHostToDevice));
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = lin;
  r.res.linear.desc = cudaCreateChannelDesc<int>();
  r.res.linear.sizeInBytes = n * sizeof(int);
  memset(&td, 0, sizeof td);
  cudaTextureObject_t lt;
  CHECK(cudaCreateTextureObject(&lt, &r, &td, NULL));
  fetch1d<<<1, 32>>>(out, lt, n);
  CHECK(cudaDeviceSynchronize());
  wrong = 0;
  for (int k = 0; k < 32; k++) {
    int i = k - 2;
    wrong += out[k] != (i < 0 ? 0 : i < n ? 7 * i + 1 : 1000);
  }
  EXPECT(wrong == 0);

  // a pitched 2-D resource (cudaMallocPitch memory), point sampled
  float *pm;
  size_t pitch;
  CHECK(cudaMallocPitch(&pm, &pitch, W * sizeof(float), H));
  CHECK(cudaMemcpy2D(pm, pitch, h, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypePitch2D;
  r.res.pitch2D.devPtr = pm;
  r.res.pitch2D.desc = fd;
  r.res.pitch2D.width = W;
  r.res.pitch2D.height = H;
  r.res.pitch2D.pitchInBytes = pitch;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  cudaTextureObject_t pt;
  CHECK(cudaCreateTextureObject(&pt, &r, &td, NULL));
  sample2d<<<H, W>>>(d, pt, 0.5f, 0.5f, 1.0f);
  CHECK(cudaDeviceSynchronize());
  EXPECT(!memcmp(d, h, sizeof h));

  CHECK(cudaDestroyTextureObject(ct));
  CHECK(cudaDestroyTextureObject(lt));
  CHECK(cudaDestroyTextureObject(pt));
  CHECK(cudaFreeArray(a));
  CHECK(cudaFreeArray(ca));
  CHECK(cudaFree(d));
  CHECK(cudaFree(d4));
  CHECK(cudaFree(lin));
  CHECK(cudaFree(out));
  CHECK(cudaFree(pm));
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
