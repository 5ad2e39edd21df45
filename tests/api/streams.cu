// streams.cu: streams and events as CUDA specifies them. Work in one stream
// runs in issue order; streams run independently of each other; the legacy
// default stream waits for blocking streams but not for non-blocking ones;
// events complete when their stream reaches them; a stream can wait for an
// event of another; callbacks and host functions run in stream order; bad
// handles and flags give CUDA's errors. Ordering is made observable with
// host functions that wait on gates the main thread opens.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

static int bad = 0;
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); exit(1); } } while (0)
#define EXPECT(cond) do { if (!(cond)) { printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond); bad++; } } while (0)
#define EXPECT_ERR(call, err) do { cudaError_t e_ = (call); if (e_ != (err)) { \
  printf("%s:%d: %s gave %s, want %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_), #err); bad++; } \
  (void)cudaGetLastError(); } while (0)

__global__ void fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}
__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2;
}

// reverses each block's slice through shared memory (a kernel with a barrier)
__global__ void rev(int *p) {
  __shared__ int buf[128];
  int t = threadIdx.x, b = blockIdx.x * blockDim.x;
  buf[t] = p[b + t];
  __syncthreads();
  p[b + t] = buf[blockDim.x - 1 - t];
}

// A gate: host functions wait (at most 20 s) until the main thread opens it.
struct Gate { std::atomic<int> open{0}; std::atomic<int> passed{0}; };
static void CUDART_CB wait_gate(void *p) {
  Gate *g = (Gate *)p;
  for (int i = 0; i < 20000 && !g->open.load(); i++) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  g->passed = g->open.load() ? 1 : -1;
}
static void CUDART_CB slow_set(void *p) {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ((std::atomic<int> *)p)->store(1);
}

// the order in which host functions ran
static std::atomic<int> seq{0};
struct Mark { int at = -1; };
static void CUDART_CB mark(void *p) { ((Mark *)p)->at = seq++; }
static void CUDART_CB cb(cudaStream_t s, cudaError_t st, void *p) {
  (void)s;
  ((Mark *)p)->at = st == cudaSuccess ? seq++ : -2;
}

int main() {
  const int n = 4096;
  int *d = NULL, *h = NULL;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMallocHost(&h, n * sizeof(int)));

  // 1. in order within a stream: set, fill, twice, copy back, callback
  cudaStream_t s1, s2, nb;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
  Gate g1;
  CHECK(cudaLaunchHostFunc(s1, wait_gate, &g1));   // holds s1 until opened
  CHECK(cudaMemsetAsync(d, 0xff, n * sizeof(int), s1));
  fill<<<(n + 255) / 256, 256, 0, s1>>>(d, n, 7);
  CHECK(cudaGetLastError());
  twice<<<(n + 255) / 256, 256, 0, s1>>>(d, n);
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
  Mark m1;
  CHECK(cudaStreamAddCallback(s1, cb, &m1, 0));
  EXPECT(cudaStreamQuery(s1) == cudaErrorNotReady);   // held at the gate
  // 2. another stream runs while s1 is held
  Mark m2;
  fill<<<1, 32, 0, s2>>>(d, 0, 0);
  CHECK(cudaLaunchHostFunc(s2, mark, &m2));
  CHECK(cudaStreamSynchronize(s2));
  EXPECT(m2.at == 0);
  EXPECT(m1.at == -1 && g1.passed == 0);
  g1.open = 1;
  CHECK(cudaStreamSynchronize(s1));
  EXPECT(g1.passed == 1 && m1.at == 1);
  EXPECT(cudaStreamQuery(s1) == cudaSuccess);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += h[i] != 2 * (7 + i);
  EXPECT(wrong == 0);

  // 3. the legacy default stream waits for a blocking stream...
  std::atomic<int> flag{0};
  CHECK(cudaLaunchHostFunc(s1, slow_set, &flag));
  int seen = -1;
  CHECK(cudaLaunchHostFunc(0, [](void *p) { *(int *)p = 0; }, &seen));   // an operation of stream 0
  EXPECT(flag.load() == 1);
  // ...but not for a non-blocking one: held at its gate, stream 0 still runs
  Gate g2;
  CHECK(cudaLaunchHostFunc(nb, wait_gate, &g2));
  CHECK(cudaMemset(d, 0, sizeof(int)));   // synchronous, on stream 0
  EXPECT(g2.passed == 0);
  CHECK(cudaStreamSynchronize(0));
  EXPECT(g2.passed == 0);
  EXPECT(cudaStreamQuery(nb) == cudaErrorNotReady);
  g2.open = 1;
  CHECK(cudaStreamSynchronize(nb));
  EXPECT(g2.passed == 1);
  // and work issued to a blocking stream after stream-0 work sees its results
  CHECK(cudaMemset(d, 0, n * sizeof(int)));
  fill<<<(n + 255) / 256, 256>>>(d, n, 100);
  twice<<<(n + 255) / 256, 256, 0, s2>>>(d, n);
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
  CHECK(cudaDeviceSynchronize());
  wrong = 0;
  for (int i = 0; i < n; i++) wrong += h[i] != 2 * (100 + i);
  EXPECT(wrong == 0);

  // 4. events: pending while their stream is held; waits across streams
  cudaEvent_t e, t0, t1, nt;
  CHECK(cudaEventCreate(&e));
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  CHECK(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming | cudaEventBlockingSync));
  EXPECT(cudaEventQuery(e) == cudaSuccess);   // never recorded
  float ms = -1;
  EXPECT_ERR(cudaEventElapsedTime(&ms, t0, t1), cudaErrorInvalidResourceHandle);   // not recorded
  Gate g3;
  Mark before, after;
  CHECK(cudaEventRecord(t0, s1));
  CHECK(cudaLaunchHostFunc(s1, wait_gate, &g3));
  CHECK(cudaLaunchHostFunc(s1, mark, &before));
  CHECK(cudaEventRecord(e, s1));
  CHECK(cudaEventRecord(t1, s1));
  CHECK(cudaEventRecord(nt, s1));
  CHECK(cudaStreamWaitEvent(s2, e, 0));
  CHECK(cudaLaunchHostFunc(s2, mark, &after));
  EXPECT(cudaEventQuery(e) == cudaErrorNotReady);
  EXPECT_ERR(cudaEventElapsedTime(&ms, t0, t1), cudaErrorNotReady);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT(after.at == -1);   // s2 waits for e
  g3.open = 1;
  CHECK(cudaEventSynchronize(e));
  CHECK(cudaStreamSynchronize(s2));
  EXPECT(before.at >= 0 && after.at == before.at + 1);
  EXPECT(cudaEventQuery(e) == cudaSuccess);
  CHECK(cudaEventSynchronize(t1));
  CHECK(cudaEventElapsedTime(&ms, t0, t1));
  EXPECT(ms >= 15.0f && ms < 20000.0f);   // the gate stayed shut for 20 ms
  CHECK(cudaEventSynchronize(nt));
  EXPECT_ERR(cudaEventElapsedTime(&ms, t0, nt), cudaErrorInvalidResourceHandle);   // DisableTiming
  EXPECT_ERR(cudaEventElapsedTime(NULL, t0, t1), cudaErrorInvalidValue);

  // 5. misuse
  EXPECT_ERR(cudaStreamCreateWithFlags(&s2, 0x10), cudaErrorInvalidValue);
  EXPECT_ERR(cudaStreamAddCallback(s1, cb, NULL, 1), cudaErrorInvalidValue);
  EXPECT_ERR(cudaStreamWaitEvent(s1, e, 0x8), cudaErrorInvalidValue);
  EXPECT_ERR(cudaEventCreateWithFlags(&e, 0x40), cudaErrorInvalidValue);
  cudaStream_t gone;
  CHECK(cudaStreamCreate(&gone));
  CHECK(cudaStreamDestroy(gone));
  EXPECT_ERR(cudaStreamDestroy(gone), cudaErrorInvalidResourceHandle);
  EXPECT_ERR(cudaStreamSynchronize(gone), cudaErrorInvalidResourceHandle);
  EXPECT_ERR(cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, gone), cudaErrorInvalidResourceHandle);
  fill<<<1, 1, 0, gone>>>(d, 1, 0);
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
  cudaEvent_t ge;
  CHECK(cudaEventCreate(&ge));
  CHECK(cudaEventDestroy(ge));
  EXPECT_ERR(cudaEventRecord(ge, 0), cudaErrorInvalidResourceHandle);
  EXPECT_ERR(cudaEventQuery(ge), cudaErrorInvalidResourceHandle);

  // 6. priorities: lower numbers are higher priorities, clamped to the range
  int least = 9, greatest = 9, p = 9;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT(least == 0 && greatest == -5);
  cudaStream_t hp;
  CHECK(cudaStreamCreateWithPriority(&hp, cudaStreamNonBlocking, -100));
  CHECK(cudaStreamGetPriority(hp, &p));
  EXPECT(p == greatest);
  unsigned fl = 9;
  CHECK(cudaStreamGetFlags(hp, &fl));
  EXPECT(fl == cudaStreamNonBlocking);

  // 7. a pageable source may be reused as soon as cudaMemcpyAsync returns
  std::vector<int> pageable(n, 5);
  CHECK(cudaMemcpyAsync(d, pageable.data(), n * sizeof(int), cudaMemcpyHostToDevice, hp));
  for (int &x : pageable) x = -1;
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, hp));
  CHECK(cudaStreamSynchronize(hp));
  wrong = 0;
  for (int i = 0; i < n; i++) wrong += h[i] != 5;
  EXPECT(wrong == 0);

  // 8. many streams, each with its own slice, destroyed with work pending
  const int ns = 8;
  cudaStream_t ss[ns];
  for (int k = 0; k < ns; k++) {
    CHECK(cudaStreamCreate(&ss[k]));
    int *part = d + k * (n / ns);
    fill<<<(n / ns + 63) / 64, 64, 0, ss[k]>>>(part, n / ns, 1000 * k);
    twice<<<(n / ns + 63) / 64, 64, 0, ss[k]>>>(part, n / ns);
    CHECK(cudaMemcpyAsync(h + k * (n / ns), part, n / ns * sizeof(int), cudaMemcpyDeviceToHost, ss[k]));
    CHECK(cudaStreamDestroy(ss[k]));
  }
  CHECK(cudaDeviceSynchronize());
  wrong = 0;
  for (int i = 0; i < n; i++) wrong += h[i] != 2 * (1000 * (i / (n / ns)) + i % (n / ns));
  EXPECT(wrong == 0);

  // 9. kernels with barriers in two streams at once, each on its half
  for (int i = 0; i < n; i++) h[i] = i;
  CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  for (int r = 0; r < 3; r++) {
    rev<<<n / 2 / 128, 128, 0, s1>>>(d);
    rev<<<n / 2 / 128, 128, 0, s2>>>(d + n / 2);
  }
  CHECK(cudaMemcpyAsync(h, d, n / 2 * sizeof(int), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaMemcpyAsync(h + n / 2, d + n / 2, n / 2 * sizeof(int), cudaMemcpyDeviceToHost, s2));
  CHECK(cudaDeviceSynchronize());
  wrong = 0;
  for (int i = 0; i < n; i++) wrong += h[i] != i / 128 * 128 + 127 - i % 128;
  EXPECT(wrong == 0);

  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaStreamDestroy(nb));
  CHECK(cudaStreamDestroy(hp));
  CHECK(cudaEventDestroy(e));
  CHECK(cudaEventDestroy(t0));
  CHECK(cudaEventDestroy(t1));
  CHECK(cudaEventDestroy(nt));
  CHECK(cudaFree(d));
  CHECK(cudaFreeHost(h));
  if (bad) {
    printf("FAIL (%d)\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
