// memory.cu: memory of every kind a CUDA program allocates: pitched 2-D and
// 3-D memory with its copies and sets (sync and async), managed memory used
// by kernels and host, page-locked memory (cudaHostAlloc, cudaHostRegister)
// mapped into kernels, pointer attributes, memory info, and CUDA's errors
// for misuse. Results are checked against host computations.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

static int bad = 0;
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); exit(1); } } while (0)
#define EXPECT(cond) do { if (!(cond)) { printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond); bad++; } } while (0)
#define EXPECT_ERR(call, err) do { cudaError_t e_ = (call); if (e_ != (err)) { \
  printf("%s:%d: %s gave %s, want %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_), #err); bad++; } \
  (void)cudaGetLastError(); } while (0)

// adds x + 10*y (+ 100*z) to each element of a pitched array
__global__ void add_xy(float *p, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float *row = (float *)((char *)p + y * pitch);
    row[x] += x + 10 * y;
  }
}
__global__ void add_xyz(cudaPitchedPtr pp, int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w && y < h && z < d) {
    float *row = (float *)((char *)pp.ptr + (z * pp.ysize + y) * pp.pitch);
    row[x] += x + 10 * y + 100 * z;
  }
}
__global__ void square(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * p[i];
}

int main() {
  // ---- 2-D: cudaMallocPitch, cudaMemset2D, cudaMemcpy2D both ways ----
  const int w = 37, h = 19;
  float *d2 = NULL;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&d2, &pitch, w * sizeof(float), h));
  EXPECT(pitch >= w * sizeof(float) && pitch % 256 == 0);
  CHECK(cudaMemset2D(d2, pitch, 0, w * sizeof(float), h));
  std::vector<float> hsrc(w * h), hdst(w * h, -1);
  for (int i = 0; i < w * h; i++) hsrc[i] = (float)(i % 7);
  CHECK(cudaMemcpy2D(d2, pitch, hsrc.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  add_xy<<<dim3(2, 2), dim3(32, 16)>>>(d2, pitch, w, h);
  CHECK(cudaMemcpy2D(hdst.data(), w * sizeof(float), d2, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) wrong += hdst[y * w + x] != hsrc[y * w + x] + x + 10 * y;
  EXPECT(wrong == 0);
  // a sub-rectangle, async, in a stream: columns 3..8 of rows 2..9
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  float *pin = NULL;
  CHECK(cudaMallocHost(&pin, 6 * 8 * sizeof(float)));
  CHECK(cudaMemset2DAsync((char *)d2 + 2 * pitch + 3 * sizeof(float), pitch, 0, 6 * sizeof(float), 8, s));
  CHECK(cudaMemcpy2DAsync(pin, 6 * sizeof(float), (char *)d2 + pitch + 3 * sizeof(float), pitch,
                          6 * sizeof(float), 8, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  wrong = 0;
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 6; x++) {
      int gy = y + 1, gx = x + 3;
      float want = gy >= 2 ? 0.0f : hsrc[gy * w + gx] + gx + 10 * gy;
      wrong += pin[y * 6 + x] != want;
    }
  EXPECT(wrong == 0);
  EXPECT_ERR(cudaMemcpy2D(hdst.data(), 4, d2, pitch, 8, 2, cudaMemcpyDeviceToHost), cudaErrorInvalidPitchValue);
  EXPECT_ERR(cudaMemcpy2D(hdst.data(), 8, d2, pitch, 8, 2, (cudaMemcpyKind)9), cudaErrorInvalidMemcpyDirection);

  // ---- 3-D: cudaMalloc3D, cudaMemset3D, cudaMemcpy3D with positions ----
  const int W = 10, H = 6, D = 4;
  cudaExtent ext = make_cudaExtent(W * sizeof(float), H, D);
  cudaPitchedPtr p3;
  CHECK(cudaMalloc3D(&p3, ext));
  EXPECT(p3.pitch >= W * sizeof(float) && p3.xsize == W * sizeof(float) && p3.ysize == H);
  CHECK(cudaMemset3D(p3, 0, ext));
  std::vector<float> box(W * H * D, 1.0f), back(W * H * D, -1.0f);
  cudaMemcpy3DParms cp = {0};
  cp.srcPtr = make_cudaPitchedPtr(box.data(), W * sizeof(float), W, H);
  cp.dstPtr = p3;
  cp.extent = ext;
  cp.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&cp));
  add_xyz<<<dim3(H, D), 32>>>(p3, W, H, D);
  cudaMemcpy3DParms cb = {0};
  cb.srcPtr = p3;
  cb.dstPtr = make_cudaPitchedPtr(back.data(), W * sizeof(float), W, H);
  cb.extent = ext;
  cb.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3DAsync(&cb, s));
  CHECK(cudaStreamSynchronize(s));
  wrong = 0;
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) wrong += back[(z * H + y) * W + x] != 1.0f + x + 10 * y + 100 * z;
  EXPECT(wrong == 0);
  // a 2x2x2 box from (x=1, y=2, z=1) of the device array to (0,0,0) of a small one
  std::vector<float> small(8, -1.0f);
  cudaMemcpy3DParms cs = {0};
  cs.srcPtr = p3;
  cs.srcPos = make_cudaPos(1 * sizeof(float), 2, 1);
  cs.dstPtr = make_cudaPitchedPtr(small.data(), 2 * sizeof(float), 2, 2);
  cs.extent = make_cudaExtent(2 * sizeof(float), 2, 2);
  cs.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&cs));
  wrong = 0;
  for (int z = 0; z < 2; z++)
    for (int y = 0; y < 2; y++)
      for (int x = 0; x < 2; x++) wrong += small[(z * 2 + y) * 2 + x] != 1.0f + (x + 1) + 10 * (y + 2) + 100 * (z + 1);
  EXPECT(wrong == 0);
  EXPECT_ERR(cudaMemcpy3D(NULL), cudaErrorInvalidValue);

  // ---- managed memory: written by the host, squared by a kernel, read back ----
  const int n = 1000;
  int *m = NULL;
  CHECK(cudaMallocManaged(&m, n * sizeof(int)));
  for (int i = 0; i < n; i++) m[i] = i - 500;
  CHECK(cudaMemPrefetchAsync(m, n * sizeof(int), 0, 0));
  CHECK(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetReadMostly, 0));
  CHECK(cudaStreamAttachMemAsync(0, m));
  EXPECT_ERR(cudaStreamAttachMemAsync(0, d2), cudaErrorInvalidValue);   // not managed memory
  square<<<(n + 127) / 128, 128>>>(m, n);
  CHECK(cudaDeviceSynchronize());
  wrong = 0;
  for (int i = 0; i < n; i++) wrong += m[i] != (i - 500) * (i - 500);
  EXPECT(wrong == 0);
  int *m0 = m;
  EXPECT_ERR(cudaMallocManaged(&m0, 0), cudaSuccess);   // recorded on an H100
  EXPECT(m0 == NULL);
  int *m2 = NULL;
  EXPECT_ERR(cudaMallocManaged(&m2, 16, 4), cudaErrorInvalidValue);

  // ---- mapped page-locked memory: kernels use it through its device pointer ----
  int *ha = NULL, *da = NULL;
  CHECK(cudaHostAlloc(&ha, n * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  for (int i = 0; i < n; i++) ha[i] = i;
  CHECK(cudaHostGetDevicePointer((void **)&da, ha, 0));
  square<<<(n + 127) / 128, 128>>>(da, n);
  CHECK(cudaDeviceSynchronize());
  wrong = 0;
  for (int i = 0; i < n; i++) wrong += ha[i] != i * i;
  EXPECT(wrong == 0);
  unsigned fl = 0;
  CHECK(cudaHostGetFlags(&fl, ha));
  EXPECT(fl == (cudaHostAllocMapped | cudaHostAllocPortable));
  EXPECT_ERR(cudaHostGetDevicePointer((void **)&da, ha, 1), cudaErrorInvalidValue);
  EXPECT_ERR(cudaHostAlloc(&ha, 16, 0x80), cudaErrorInvalidValue);

  // ---- registered memory: the user's own buffer, page-locked in place ----
  std::vector<int> user(n + 64);
  int *u = user.data() + 16;   // not at the start of the buffer
  for (int i = 0; i < n; i++) u[i] = 3 * i;
  CHECK(cudaHostRegister(u, n * sizeof(int), cudaHostRegisterMapped));
  EXPECT_ERR(cudaHostRegister(u + 10, 8, 0), cudaErrorHostMemoryAlreadyRegistered);
  int *du = NULL;
  CHECK(cudaHostGetDevicePointer((void **)&du, u + 5, 0));   // inside the range
  EXPECT(du == u + 5);
  int *dd = NULL;
  CHECK(cudaMalloc(&dd, n * sizeof(int)));
  CHECK(cudaMemcpyAsync(dd, u, n * sizeof(int), cudaMemcpyHostToDevice, s));   // queued: u is page-locked
  square<<<(n + 127) / 128, 128, 0, s>>>(dd, n);
  CHECK(cudaMemcpyAsync(u, dd, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  wrong = 0;
  for (int i = 0; i < n; i++) wrong += u[i] != 9 * i * i;
  EXPECT(wrong == 0);
  EXPECT_ERR(cudaHostUnregister(u + 1), cudaErrorInvalidValue);   // inside a registered range: recorded on an H100
  CHECK(cudaHostUnregister(u));
  EXPECT_ERR(cudaHostUnregister(u), cudaErrorHostMemoryNotRegistered);
  EXPECT_ERR(cudaHostGetDevicePointer((void **)&du, u, 0), cudaErrorInvalidValue);
  EXPECT_ERR(cudaHostRegister(NULL, 16, 0), cudaErrorInvalidValue);

  // ---- stream-ordered allocation: allocated, used and freed in stream order ----
  int pools = 0;
  CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, 0));
  EXPECT(pools == 1);
  int *sa = NULL;
  for (int i = 0; i < n; i++) u[i] = i;
  CHECK(cudaMallocAsync(&sa, n * sizeof(int), s));
  CHECK(cudaMemcpyAsync(sa, u, n * sizeof(int), cudaMemcpyHostToDevice, s));
  square<<<(n + 127) / 128, 128, 0, s>>>(sa, n);
  CHECK(cudaMemcpyAsync(ha, sa, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(sa, s));
  CHECK(cudaStreamSynchronize(s));
  wrong = 0;
  for (int i = 0; i < n; i++) wrong += ha[i] != i * i;
  EXPECT(wrong == 0);
  EXPECT_ERR(cudaFreeAsync(ha, s), cudaErrorInvalidValue);   // not from cudaMalloc*

  // ---- what a pointer is ----
  cudaPointerAttributes pa;
  CHECK(cudaPointerGetAttributes(&pa, dd + 3));
  EXPECT(pa.type == cudaMemoryTypeDevice && pa.device == 0 && pa.devicePointer == dd + 3 && pa.hostPointer == NULL);
  CHECK(cudaPointerGetAttributes(&pa, ha));
  EXPECT(pa.type == cudaMemoryTypeHost && pa.hostPointer == ha);
  CHECK(cudaPointerGetAttributes(&pa, m));
  EXPECT(pa.type == cudaMemoryTypeManaged);
  CHECK(cudaPointerGetAttributes(&pa, user.data()));
  EXPECT(pa.type == cudaMemoryTypeUnregistered);

  // ---- memory info; frees of the wrong kind ----
  size_t fr = 0, total = 0;
  CHECK(cudaMemGetInfo(&fr, &total));
  EXPECT(total > 0 && fr <= total);
  EXPECT_ERR(cudaFree(ha), cudaErrorInvalidValue);      // page-locked memory is freed with cudaFreeHost
  EXPECT_ERR(cudaFreeHost(dd), cudaErrorInvalidValue);
  EXPECT_ERR(cudaFree(dd + 1), cudaErrorInvalidValue);
  CHECK(cudaFree(dd));
  CHECK(cudaFree(m));
  CHECK(cudaFree(d2));
  CHECK(cudaFree(p3.ptr));
  CHECK(cudaFreeHost(ha));
  CHECK(cudaFreeHost(pin));
  CHECK(cudaStreamDestroy(s));
  if (bad) {
    printf("FAIL (%d)\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
