// graphs.cu: CUDA graphs, each part checked against a CPU computation:
// graphs built node by node (memset, memcpy, kernel, host, child graph,
// empty, event record and wait; a diamond of dependencies), stream capture
// across a fork and a join of two streams (with cudaMallocAsync/FreeAsync,
// host functions, cudaGraphLaunch of another graph), executable updates
// (cudaGraphExecUpdate, cudaGraphExecKernelNodeSetParams, disabled nodes),
// conditional nodes set by device code (while, if/else, switch), memory
// alloc/free nodes, and the errors CUDA gives for misuse.
#include <cstdio>
#include <cstring>

static int bad = 0;
#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));            \
      bad++;                                                                              \
    }                                                                                     \
  } while (0)
#define EXPECT(c)                                                                         \
  do {                                                                                    \
    if (!(c)) {                                                                           \
      printf("%s:%d: expected %s\n", __FILE__, __LINE__, #c);                             \
      bad++;                                                                              \
    }                                                                                     \
  } while (0)

__global__ void axpb(float *y, const float *x, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}

__global__ void add_into(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i];
}

// one step of a loop run by a while node: counts down, says whether to go on
__global__ void countdown(int *c, int *trace, cudaGraphConditionalHandle h) {
  if (threadIdx.x == 0) {
    trace[*c] += 1;
    *c -= 1;
    cudaGraphSetConditional(h, *c > 0);
  }
}

__global__ void pick(const int *sel, cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, *sel); }
__global__ void mark(int *out, int v) { *out = v; }

static int host_calls = 0;
static void on_host(void *p) { host_calls += *(int *)p; }

static const int N = 1000;

static void manual() {
  float *x, *y, *z, hx[N], hy[N];
  unsigned *pat;
  CHECK(cudaMalloc(&x, N * sizeof(float)));
  CHECK(cudaMalloc(&y, N * sizeof(float)));
  CHECK(cudaMalloc(&z, N * sizeof(float)));
  CHECK(cudaMalloc(&pat, N * sizeof(unsigned)));
  for (int i = 0; i < N; i++) hx[i] = i * 0.25f;

  cudaGraph_t g, child;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t cp, k1, k2, k3, ms, host, ch, empty, rec, wait, back;
  // x <- hx; then two kernels from x in parallel (a diamond), joined by a third
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(hx, N * sizeof(float), N, 1);
  p.dstPtr = make_cudaPitchedPtr(x, N * sizeof(float), N, 1);
  p.extent = make_cudaExtent(N * sizeof(float), 1, 1);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaGraphAddMemcpyNode(&cp, g, NULL, 0, &p));
  float a = 2, b = 1, a2 = -1, b2 = 3;
  int n = N;
  void *args1[] = {&y, &x, &a, &b, &n}, *args2[] = {&z, &x, &a2, &b2, &n}, *args3[] = {&y, &z, &n};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)axpb;
  kp.gridDim = dim3((N + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args1;
  CHECK(cudaGraphAddKernelNode(&k1, g, &cp, 1, &kp));
  kp.kernelParams = args2;
  CHECK(cudaGraphAddKernelNode(&k2, g, &cp, 1, &kp));
  a = 100;   // the node took a copy of the arguments when it was added
  cudaKernelNodeParams kq = {};
  kq.func = (void *)add_into;
  kq.gridDim = dim3((N + 127) / 128);
  kq.blockDim = dim3(128);
  kq.kernelParams = args3;
  cudaGraphNode_t both[] = {k1, k2};
  CHECK(cudaGraphAddKernelNode(&k3, g, both, 2, &kq));   // y = (2x+1) + (3-x) = x + 4
  // a memset of 4-byte elements, independent of the rest
  cudaMemsetParams mp = {};
  mp.dst = pat;
  mp.value = 0xdeadbeefu;
  mp.elementSize = 4;
  mp.width = N;
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&ms, g, NULL, 0, &mp));
  // a child graph (cloned into the node): z <- y
  CHECK(cudaGraphCreate(&child, 0));
  cudaGraphNode_t inner;
  CHECK(cudaGraphAddMemcpyNode1D(&inner, child, NULL, 0, z, y, N * sizeof(float), cudaMemcpyDeviceToDevice));
  CHECK(cudaGraphAddChildGraphNode(&ch, g, &k3, 1, child));
  CHECK(cudaGraphDestroy(child));
  int one = 1;
  cudaHostNodeParams hp = {on_host, &one};
  CHECK(cudaGraphAddHostNode(&host, g, &ch, 1, &hp));
  cudaEvent_t ev;
  CHECK(cudaEventCreate(&ev));
  CHECK(cudaGraphAddEventRecordNode(&rec, g, &host, 1, ev));
  CHECK(cudaGraphAddEventWaitNode(&wait, g, &rec, 1, ev));
  CHECK(cudaGraphAddEmptyNode(&empty, g, &wait, 1));
  CHECK(cudaGraphAddMemcpyNode1D(&back, g, &empty, 1, hy, z, N * sizeof(float), cudaMemcpyDeviceToHost));

  size_t nn = 0, nr = 0, ne = 0;
  CHECK(cudaGraphGetNodes(g, NULL, &nn));
  CHECK(cudaGraphGetRootNodes(g, NULL, &nr));
  CHECK(cudaGraphGetEdges(g, NULL, NULL, NULL, &ne));
  EXPECT(nn == 11 && nr == 2 && ne == 10);
  cudaGraphNodeType t;
  CHECK(cudaGraphNodeGetType(ch, &t));
  EXPECT(t == cudaGraphNodeTypeGraph);
  size_t nd = 0;
  CHECK(cudaGraphNodeGetDependencies(k3, NULL, NULL, &nd));
  EXPECT(nd == 2);
  cudaKernelNodeParams got;
  CHECK(cudaGraphKernelNodeGetParams(k1, &got));
  EXPECT(got.func == (void *)axpb && got.gridDim.x == (N + 127) / 128 && *(float *)got.kernelParams[2] == 2.0f);

  cudaGraphExec_t gx;
  CHECK(cudaGraphInstantiate(&gx, g, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  for (int r = 0; r < 3; r++) {
    memset(hy, 0, sizeof hy);
    for (int i = 0; i < N; i++) hx[i] = i * 0.25f + r;
    CHECK(cudaGraphLaunch(gx, s));
    CHECK(cudaStreamSynchronize(s));
    int wrong = 0;
    for (int i = 0; i < N; i++) wrong += hy[i] != hx[i] + 4;
    EXPECT(wrong == 0);
  }
  EXPECT(host_calls == 3);
  unsigned hp2[N];
  CHECK(cudaMemcpy(hp2, pat, sizeof hp2, cudaMemcpyDeviceToHost));
  int wrongp = 0;
  for (int i = 0; i < N; i++) wrongp += hp2[i] != 0xdeadbeefu;
  EXPECT(wrongp == 0);

  // a clone runs alike; a disabled node does not run; new kernel parameters
  cudaGraph_t cl;
  CHECK(cudaGraphClone(&cl, g));
  cudaGraphNode_t k1c;
  CHECK(cudaGraphNodeFindInClone(&k1c, k1, cl));
  cudaGraphExec_t xc;
  CHECK(cudaGraphInstantiate(&xc, cl, 0));
  a = 3;   // y = 3x + 1 + 3 - x = 2x + 4
  kp.kernelParams = args1;
  CHECK(cudaGraphExecKernelNodeSetParams(xc, k1c, &kp));
  CHECK(cudaGraphLaunch(xc, s));
  CHECK(cudaStreamSynchronize(s));
  int wrong = 0;
  for (int i = 0; i < N; i++) wrong += hy[i] != 2 * hx[i] + 4;
  EXPECT(wrong == 0);
  cudaGraphNode_t k3c, backc, cpc;
  CHECK(cudaGraphNodeFindInClone(&k3c, k3, cl));
  CHECK(cudaGraphNodeFindInClone(&backc, back, cl));
  CHECK(cudaGraphNodeFindInClone(&cpc, cp, cl));
  CHECK(cudaGraphNodeSetEnabled(xc, k3c, 0));   // now z = y = 3x + 1 from k1
  CHECK(cudaGraphLaunch(xc, s));
  CHECK(cudaStreamSynchronize(s));
  wrong = 0;
  for (int i = 0; i < N; i++) wrong += hy[i] != 3 * hx[i] + 1;
  EXPECT(wrong == 0);
  unsigned on = 1;
  CHECK(cudaGraphNodeGetEnabled(xc, k3c, &on));
  EXPECT(on == 0);

  // a cycle cannot be instantiated
  CHECK(cudaGraphAddDependencies(cl, &backc, &cpc, NULL, 1));
  cudaGraphExec_t xbad;
  EXPECT(cudaGraphInstantiate(&xbad, cl, 0) == cudaErrorInvalidValue);
  cudaGetLastError();

  CHECK(cudaGraphExecDestroy(xc));
  CHECK(cudaGraphExecDestroy(gx));
  CHECK(cudaGraphDestroy(cl));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaEventDestroy(ev));
  CHECK(cudaFree(y));
  CHECK(cudaFree(z));
  CHECK(cudaFree(pat));
}

// capture: s1 forks to s2 and joins back; the work of both becomes one graph
static void capture() {
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  float *x, *y, *hy;
  CHECK(cudaMalloc(&x, N * sizeof(float)));
  CHECK(cudaMalloc(&y, N * sizeof(float)));
  CHECK(cudaMallocHost(&hy, N * sizeof(float)));
  float hx[N];
  for (int i = 0; i < N; i++) hx[i] = (float)(i % 17);
  cudaEvent_t fork, joined;
  CHECK(cudaEventCreate(&fork));
  CHECK(cudaEventCreate(&joined));
  // a small graph launched inside the capture becomes a child graph node
  cudaGraph_t small;
  cudaGraphExec_t smallx;
  cudaGraphNode_t sn;
  int two = 2;
  cudaHostNodeParams hp = {on_host, &two};
  CHECK(cudaGraphCreate(&small, 0));
  CHECK(cudaGraphAddHostNode(&sn, small, NULL, 0, &hp));
  CHECK(cudaGraphInstantiate(&smallx, small, 0));

  cudaStreamCaptureStatus st;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CHECK(cudaStreamIsCapturing(s1, &st));
  EXPECT(st == cudaStreamCaptureStatusActive);
  EXPECT(cudaStreamSynchronize(s1) == cudaErrorStreamCaptureUnsupported);
  float *tmp;
  CHECK(cudaMallocAsync(&tmp, N * sizeof(float), s1));   // an allocation node
  CHECK(cudaMemcpyAsync(x, hx, N * sizeof(float), cudaMemcpyHostToDevice, s1));
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));   // s2 joins the capture
  CHECK(cudaStreamIsCapturing(s2, &st));
  EXPECT(st == cudaStreamCaptureStatusActive);
  axpb<<<(N + 255) / 256, 256, 0, s2>>>(tmp, x, 10, 0, N);   // tmp = 10x
  CHECK(cudaMemsetAsync(y, 0, N * sizeof(float), s1));
  axpb<<<(N + 255) / 256, 256, 0, s1>>>(y, x, 1, 5, N);     // y = x + 5
  CHECK(cudaEventRecord(joined, s2));
  CHECK(cudaStreamWaitEvent(s1, joined, 0));   // the join
  add_into<<<(N + 255) / 256, 256, 0, s1>>>(y, tmp, N);     // y = 11x + 5
  CHECK(cudaFreeAsync(tmp, s1));                             // a free node
  CHECK(cudaGraphLaunch(smallx, s1));
  CHECK(cudaMemcpyAsync(hy, y, N * sizeof(float), cudaMemcpyDeviceToHost, s1));
  unsigned long long id = 0;
  cudaGraph_t cg = NULL;
  const cudaGraphNode_t *deps = NULL;
  size_t ndeps = 0;
  CHECK(cudaStreamGetCaptureInfo(s1, &st, &id, &cg, &deps, NULL, &ndeps));
  EXPECT(st == cudaStreamCaptureStatusActive && id != 0 && cg != NULL && ndeps == 1);
  cudaGraph_t g;
  CHECK(cudaStreamEndCapture(s1, &g));
  CHECK(cudaStreamIsCapturing(s2, &st));
  EXPECT(st == cudaStreamCaptureStatusNone);
  size_t nn = 0;
  CHECK(cudaGraphGetNodes(g, NULL, &nn));
  EXPECT(nn == 9);

  cudaGraphExec_t x1;
  CHECK(cudaGraphInstantiate(&x1, g, 0));
  int before = host_calls;
  for (int r = 0; r < 4; r++) {
    memset(hy, 0, N * sizeof(float));
    CHECK(cudaGraphLaunch(x1, s2));
    CHECK(cudaStreamSynchronize(s2));
    int wrong = 0;
    for (int i = 0; i < N; i++) wrong += hy[i] != 11 * hx[i] + 5;
    EXPECT(wrong == 0);
  }
  EXPECT(host_calls == before + 8);

  // work captured again with other values updates an executable of the
  // same topology
  float *t2;
  CHECK(cudaMalloc(&t2, N * sizeof(float)));
  cudaGraph_t gs[2];
  for (int v = 0; v < 2; v++) {
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    axpb<<<(N + 255) / 256, 256, 0, s2>>>(t2, x, v ? -1 : 2, 0, N);
    axpb<<<(N + 255) / 256, 256, 0, s1>>>(y, x, 1, v ? 7 : 1, N);
    CHECK(cudaEventRecord(joined, s2));
    CHECK(cudaStreamWaitEvent(s1, joined, 0));
    add_into<<<(N + 255) / 256, 256, 0, s1>>>(y, t2, N);   // y = 3x + 1, then 7
    CHECK(cudaMemcpyAsync(hy, y, N * sizeof(float), cudaMemcpyDeviceToHost, s1));
    CHECK(cudaStreamEndCapture(s1, &gs[v]));
  }
  cudaGraphExec_t x2;
  CHECK(cudaGraphInstantiate(&x2, gs[0], 0));
  CHECK(cudaGraphLaunch(x2, s1));
  CHECK(cudaStreamSynchronize(s1));
  int wrong = 0;
  for (int i = 0; i < N; i++) wrong += hy[i] != 3 * hx[i] + 1;
  EXPECT(wrong == 0);
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(x2, gs[1], &info));
  EXPECT(info.result == cudaGraphExecUpdateSuccess);
  CHECK(cudaGraphLaunch(x2, s1));
  CHECK(cudaStreamSynchronize(s1));
  wrong = 0;
  for (int i = 0; i < N; i++) wrong += hy[i] != 7;
  EXPECT(wrong == 0);
  CHECK(cudaGraphExecDestroy(x2));
  CHECK(cudaGraphDestroy(gs[0]));
  CHECK(cudaGraphDestroy(gs[1]));
  CHECK(cudaFree(t2));
  // another topology is refused, with the reason
  cudaGraph_t g3;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  axpb<<<1, 32, 0, s1>>>(y, x, 1, 1, 32);
  CHECK(cudaStreamEndCapture(s1, &g3));
  EXPECT(cudaGraphExecUpdate(x1, g3, &info) == cudaErrorGraphExecUpdateFailure &&
         info.result == cudaGraphExecUpdateErrorTopologyChanged);
  cudaGetLastError();
  // ending a capture that was never begun
  cudaGraph_t none;
  EXPECT(cudaStreamEndCapture(s2, &none) == cudaErrorIllegalState);
  cudaGetLastError();

  CHECK(cudaGraphExecDestroy(x1));
  CHECK(cudaGraphExecDestroy(smallx));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(g3));
  CHECK(cudaGraphDestroy(small));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFreeHost(hy));
  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(joined));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
}

// conditional nodes whose value device code sets
static void conditionals() {
  int *c, *trace, *sel, *out;
  CHECK(cudaMallocManaged(&c, sizeof(int)));
  CHECK(cudaMallocManaged(&trace, 16 * sizeof(int)));
  CHECK(cudaMallocManaged(&sel, sizeof(int)));
  CHECK(cudaMallocManaged(&out, sizeof(int)));
  // while: the body runs while the kernel in it says so; the handle's
  // default (1) is set at each launch
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams cp = {cudaGraphNodeTypeConditional};
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t wn, kn;
  CHECK(cudaGraphAddNode(&wn, g, NULL, NULL, 0, &cp));
  cudaGraph_t body = cp.conditional.phGraph_out[0];
  void *kargs[] = {&c, &trace, &h};
  cudaGraphNodeParams kp = {cudaGraphNodeTypeKernel};
  kp.kernel.func = (void *)countdown;
  kp.kernel.gridDim = dim3(1);
  kp.kernel.blockDim = dim3(32);
  kp.kernel.kernelParams = kargs;
  CHECK(cudaGraphAddNode(&kn, body, NULL, NULL, 0, &kp));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  for (int r = 0; r < 2; r++) {
    *c = 5 + r;
    memset(trace, 0, 16 * sizeof(int));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaDeviceSynchronize());
    int wrong = *c != 0;
    for (int i = 0; i < 16; i++) wrong += trace[i] != (i >= 1 && i <= 5 + r);
    EXPECT(wrong == 0);
  }
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));

  // if/else and switch, chosen by a kernel before them
  for (int type = 0; type < 2; type++) {
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphConditionalHandleCreate(&h, g));
    void *pargs[] = {&sel, &h};
    cudaGraphNodeParams pp = {cudaGraphNodeTypeKernel};
    pp.kernel.func = (void *)pick;
    pp.kernel.gridDim = dim3(1);
    pp.kernel.blockDim = dim3(1);
    pp.kernel.kernelParams = pargs;
    cudaGraphNode_t pn, cn;
    CHECK(cudaGraphAddNode(&pn, g, NULL, NULL, 0, &pp));
    cudaGraphNodeParams q = {cudaGraphNodeTypeConditional};
    q.conditional.handle = h;
    q.conditional.type = type ? cudaGraphCondTypeSwitch : cudaGraphCondTypeIf;
    q.conditional.size = type ? 3 : 2;
    CHECK(cudaGraphAddNode(&cn, g, &pn, NULL, 1, &q));
    int vals[3] = {10, 20, 30};
    for (unsigned i = 0; i < q.conditional.size; i++) {
      void *margs[] = {&out, &vals[i]};
      cudaGraphNodeParams mp = {cudaGraphNodeTypeKernel};
      mp.kernel.func = (void *)mark;
      mp.kernel.gridDim = dim3(1);
      mp.kernel.blockDim = dim3(1);
      mp.kernel.kernelParams = margs;
      cudaGraphNode_t m;
      CHECK(cudaGraphAddNode(&m, q.conditional.phGraph_out[i], NULL, NULL, 0, &mp));
    }
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int v = 0; v < 4; v++) {
      *sel = v;
      *out = -1;
      CHECK(cudaGraphLaunch(x, 0));
      CHECK(cudaDeviceSynchronize());
      int want = type ? (v < 3 ? vals[v] : -1) : (v ? vals[0] : vals[1]);
      EXPECT(*out == want);
    }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
  }
  CHECK(cudaFree(c));
  CHECK(cudaFree(trace));
  CHECK(cudaFree(sel));
  CHECK(cudaFree(out));
}

// memory nodes: the allocation has one address for every launch
static void memnodes() {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = {};
  ap.bytesize = N * sizeof(float);
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  cudaGraphNode_t an, kn, cn, fn;
  CHECK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
  float *d = (float *)ap.dptr, *src, h[N];
  EXPECT(d != NULL);
  CHECK(cudaMalloc(&src, N * sizeof(float)));
  float hs[N];
  for (int i = 0; i < N; i++) hs[i] = (float)i;
  CHECK(cudaMemcpy(src, hs, sizeof hs, cudaMemcpyHostToDevice));
  float a = 0.5f, b = -2;
  int n = N;
  void *args[] = {&d, &src, &a, &b, &n};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)axpb;
  kp.gridDim = dim3((N + 63) / 64);
  kp.blockDim = dim3(64);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&kn, g, &an, 1, &kp));
  CHECK(cudaGraphAddMemcpyNode1D(&cn, g, &kn, 1, h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddMemFreeNode(&fn, g, &cn, 1, d));
  cudaMemAllocNodeParams back;
  CHECK(cudaGraphMemAllocNodeGetParams(an, &back));
  EXPECT(back.dptr == d && back.bytesize == N * sizeof(float));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  CHECK(cudaGraphDestroy(g));   // the executable keeps what it needs
  for (int r = 0; r < 2; r++) {
    memset(h, 0, sizeof h);
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaDeviceSynchronize());
    int wrong = 0;
    for (int i = 0; i < N; i++) wrong += h[i] != 0.5f * i - 2;
    EXPECT(wrong == 0);
  }
  unsigned long long used = 1;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  EXPECT(used >= N * sizeof(float));
  CHECK(cudaDeviceGraphMemTrim(0));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  EXPECT(used == 0);
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaFree(src));
}

int main() {
  manual();
  capture();
  conditionals();
  memnodes();
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
