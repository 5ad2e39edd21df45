// ipc.cu: CUDA IPC between processes. Device memory and events of one
// process opened by another (cudaIpcGetMemHandle/cudaIpcOpenMemHandle,
// cudaIpcGetEventHandle/cudaIpcOpenEventHandle), each process running
// kernels on the other's memory, ordered by the other's events:
//  1. fork() (CUDA first used after it, as CUDA requires): the child's
//     memory and event, opened by the parent, and back;
//  2. fork() and exec of itself (as cuda-samples' simpleIPC): the parent's
//     allocations (small, medium, large), opened by two children, which
//     wait for the parent's event and then for each other's;
// and CUDA's errors for misuse. Each process checks what the others wrote.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime.h>

static int bad = 0;
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("[%d] %s:%d: %s: %s\nFAIL\n", (int)getpid(), __FILE__, __LINE__, #call, cudaGetErrorName(e_)); exit(1); } } while (0)
#define EXPECT(cond) do { if (!(cond)) { printf("[%d] %s:%d: expected %s\n", (int)getpid(), __FILE__, __LINE__, #cond); bad++; } } while (0)
#define EXPECT_ERR(call, err) do { cudaError_t e_ = (call); if (e_ != (err)) { \
  printf("%s:%d: %s gave %s, want %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_), #err); bad++; } \
  (void)cudaGetLastError(); } while (0)

// p[i] = p[i] * mul + add, after a while (so that a reader that does not
// wait for the event recorded after it reads the old values)
__global__ void slow_axpb(int *p, int n, int mul, int add, int spin) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = p[i], t = 0;
  for (int k = 0; k < spin; k++) t += (x ^ k) & 1;
  p[i] = t < 0 ? 0 : x * mul + add;
}
__global__ void iota(int *p, int n, int a, int b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = a * i + b;
}

// What the processes share outside CUDA: a page of shared memory.
struct Shared {
  volatile int stage;
  volatile int done[2];
  cudaIpcMemHandle_t mem[3];
  cudaIpcEventHandle_t ev[3];
};

static void wait_stage(volatile int *s, int v) {
  while (*s < v) usleep(1000);
}

static int blocks(int n) { return (n + 255) / 256; }

// ---- 1. fork ----
static const int N1 = 1 << 16;

static void fork_child(Shared *sh) {
  int *buf;
  cudaEvent_t ev, plain;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaMalloc(&buf, N1 * sizeof(int)));
  iota<<<blocks(N1), 256, 0, s>>>(buf, N1, 3, 1);
  CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming | cudaEventInterprocess));
  CHECK(cudaEventRecord(ev, s));
  CHECK(cudaIpcGetMemHandle(&sh->mem[0], buf));
  CHECK(cudaIpcGetEventHandle(&sh->ev[0], ev));

  // misuse, on this side
  void *q;
  cudaEvent_t e2;
  EXPECT_ERR(cudaIpcOpenMemHandle(&q, sh->mem[0], cudaIpcMemLazyEnablePeerAccess), cudaErrorDeviceUninitialized);
  EXPECT_ERR(cudaIpcOpenEventHandle(&e2, sh->ev[0]), cudaErrorDeviceUninitialized);
  CHECK(cudaEventCreate(&plain));
  cudaIpcEventHandle_t eh;
  EXPECT_ERR(cudaIpcGetEventHandle(&eh, plain), cudaErrorInvalidResourceHandle);
  EXPECT_ERR(cudaEventCreateWithFlags(&e2, cudaEventInterprocess), cudaErrorInvalidValue);   // must not time
  cudaIpcMemHandle_t mh;
  std::vector<int> host(16);
  int *pinned, *managed, *pooled;
  CHECK(cudaMallocHost(&pinned, 64));
  CHECK(cudaMallocManaged(&managed, 64));
  CHECK(cudaMallocAsync(&pooled, 64, s));
  EXPECT_ERR(cudaIpcGetMemHandle(&mh, host.data()), cudaErrorInvalidValue);
  EXPECT_ERR(cudaIpcGetMemHandle(&mh, pinned), cudaErrorInvalidValue);
  EXPECT_ERR(cudaIpcGetMemHandle(&mh, managed), cudaErrorInvalidValue);
  EXPECT_ERR(cudaIpcGetMemHandle(&mh, pooled), cudaErrorInvalidValue);
  EXPECT_ERR(cudaIpcGetMemHandle(NULL, buf), cudaErrorInvalidValue);
  CHECK(cudaFreeAsync(pooled, s));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(managed));
  sh->stage = 1;

  // the parent computes on our memory, after our kernel (it waits for our
  // event), and records the event after its kernel: we wait for it, then read
  wait_stage(&sh->stage, 2);
  std::vector<int> got(N1);
  CHECK(cudaStreamWaitEvent(s, ev, 0));
  CHECK(cudaMemcpyAsync(got.data(), buf, N1 * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  int wrong = 0;
  for (int i = 0; i < N1; i++) wrong += got[i] != (3 * i + 1) * 2 + 1000;
  EXPECT(wrong == 0);
  // and once more: ours, for the parent to wait for
  slow_axpb<<<blocks(N1), 256, 0, s>>>(buf, N1, 1, -7, 500);
  CHECK(cudaEventRecord(ev, s));
  sh->stage = 3;
  wait_stage(&sh->stage, 4);   // (the parent has read it: the memory stays ours until then)
  CHECK(cudaEventDestroy(ev));
  CHECK(cudaFree(buf));
  exit(bad ? 1 : 0);
}

static void fork_parent(Shared *sh, pid_t child) {
  wait_stage(&sh->stage, 1);
  int *p, *p2;
  cudaEvent_t ev;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaIpcOpenMemHandle((void **)&p, sh->mem[0], cudaIpcMemLazyEnablePeerAccess));
  CHECK(cudaIpcOpenMemHandle((void **)&p2, sh->mem[0], 0));   // opened again: the same, counted
  EXPECT(p == p2);
  CHECK(cudaIpcOpenEventHandle(&ev, sh->ev[0]));
  cudaIpcEventHandle_t again;   // an opened event's handle is the handle
  CHECK(cudaIpcGetEventHandle(&again, ev));
  EXPECT(memcmp(&again, &sh->ev[0], sizeof again) == 0);
  float ms;
  EXPECT_ERR(cudaEventElapsedTime(&ms, ev, ev), cudaErrorInvalidResourceHandle);   // it does not time
  cudaPointerAttributes a;
  CHECK(cudaPointerGetAttributes(&a, p));
  EXPECT(a.type == cudaMemoryTypeDevice && a.hostPointer == NULL);
  EXPECT_ERR(cudaFree(p), cudaErrorInvalidValue);   // not ours to free

  CHECK(cudaStreamWaitEvent(s, ev, 0));
  slow_axpb<<<blocks(N1), 256, 0, s>>>(p, N1, 2, 1000, 500);
  CHECK(cudaEventRecord(ev, s));
  sh->stage = 2;   // (before the kernel ends: the child must wait for the event)

  wait_stage(&sh->stage, 3);
  std::vector<int> got(N1);
  CHECK(cudaEventSynchronize(ev));   // the child's record, the latest
  CHECK(cudaMemcpy(got.data(), p, N1 * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < N1; i++) wrong += got[i] != (3 * i + 1) * 2 + 1000 - 7;
  EXPECT(wrong == 0);
  EXPECT(cudaEventQuery(ev) == cudaSuccess);
  sh->stage = 4;
  CHECK(cudaIpcCloseMemHandle(p));
  CHECK(cudaIpcCloseMemHandle(p2));
  EXPECT_ERR(cudaIpcCloseMemHandle(p), cudaErrorInvalidValue);   // closed twice, as opened
  CHECK(cudaEventDestroy(ev));
  int st = -1;
  waitpid(child, &st, 0);
  EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

// ---- 2. fork and exec ----
static const size_t SIZES[3] = {100, 1 << 20, 16 << 20};   // bytes

static const int SPIN[3] = {20000, 20, 1};   // (a while, for each size)

static int count(int k) { return (int)(SIZES[k] / sizeof(int)); }

static void exec_child(Shared *sh, int id) {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int *p[3];
  cudaEvent_t ev[3];
  for (int k = 0; k < 3; k++) {
    CHECK(cudaIpcOpenMemHandle((void **)&p[k], sh->mem[k], cudaIpcMemLazyEnablePeerAccess));
    CHECK(cudaIpcOpenEventHandle(&ev[k], sh->ev[k]));
  }
  // child 0 takes the buffers in order 0 1 2, child 1 in order 1 2 0, a
  // step at a time (after both issued the previous one): each step waits
  // for the buffer's event, the previous user's record
  for (int step = 0; step < 3; step++) {
    int k = (step + id) % 3;
    CHECK(cudaStreamWaitEvent(s, ev[k], 0));
    slow_axpb<<<blocks(count(k)), 256, 0, s>>>(p[k], count(k), 3, id + 1, SPIN[k]);
    CHECK(cudaEventRecord(ev[k], s));
    __sync_fetch_and_add(&sh->done[id], 1);
    wait_stage(&sh->done[1 - id], step + 1);
  }
  CHECK(cudaStreamSynchronize(s));
  for (int k = 0; k < 3; k++) {
    CHECK(cudaIpcCloseMemHandle(p[k]));
    CHECK(cudaEventDestroy(ev[k]));
  }
  exit(bad ? 1 : 0);
}

static void exec_parent(const char *self) {
  int fd = memfd_create("ipc-test", 0);   // inherited across exec: the children's Shared
  if (fd < 0 || ftruncate(fd, sizeof(Shared)) != 0) { printf("memfd\nFAIL\n"); exit(1); }
  Shared *sh = (Shared *)mmap(NULL, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  memset(sh, 0, sizeof *sh);
  int *p[3];
  cudaEvent_t ev[3];
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int k = 0; k < 3; k++) {
    CHECK(cudaMalloc(&p[k], SIZES[k]));
    CHECK(cudaEventCreate(&ev[k], cudaEventDisableTiming | cudaEventInterprocess));
    iota<<<blocks(count(k)), 256, 0, s>>>(p[k], count(k), 1, k);
    slow_axpb<<<blocks(count(k)), 256, 0, s>>>(p[k], count(k), 1, 5, SPIN[k]);
    CHECK(cudaEventRecord(ev[k], s));   // the children wait for it
    CHECK(cudaIpcGetMemHandle(&sh->mem[k], p[k]));
    CHECK(cudaIpcGetEventHandle(&sh->ev[k], ev[k]));
  }
  pid_t kids[2];
  for (int id = 0; id < 2; id++) {
    char a1[16], a2[16];
    snprintf(a1, sizeof a1, "%d", id);
    snprintf(a2, sizeof a2, "%d", fd);
    if ((kids[id] = fork()) == 0) {
      char *argv[] = {(char *)self, a1, a2, NULL};
      execv(self, argv);
      _exit(127);
    }
  }
  for (int id = 0; id < 2; id++) {
    int st = -1;
    waitpid(kids[id], &st, 0);
    EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  // each element: ((i + k) + 5) * 3 + (first child's id + 1), then * 3 +
  // (second's + 1); buffer 0 is child 0's first, buffers 1 and 2 child 1's
  for (int k = 0; k < 3; k++) {
    CHECK(cudaEventSynchronize(ev[k]));
    std::vector<int> got(count(k));
    CHECK(cudaMemcpy(got.data(), p[k], SIZES[k], cudaMemcpyDeviceToHost));
    int first = k == 0 ? 1 : 2, second = 3 - first, wrong = 0;
    for (int i = 0; i < count(k); i++) wrong += got[i] != ((i + k + 5) * 3 + first) * 3 + second;
    if (wrong) printf("buffer %d: %d wrong\n", k, wrong);
    EXPECT(wrong == 0);
    CHECK(cudaEventDestroy(ev[k]));
    CHECK(cudaFree(p[k]));
  }
}

int main(int argc, char **argv) {
  if (argc == 3) {   // an exec'ed child: its number, the Shared's descriptor
    Shared *sh = (Shared *)mmap(NULL, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED, atoi(argv[2]), 0);
    if (sh == MAP_FAILED) { printf("mmap\nFAIL\n"); return 1; }
    exec_child(sh, atoi(argv[1]));
  }
  Shared *sh = (Shared *)mmap(NULL, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  memset(sh, 0, sizeof *sh);
  fflush(stdout);
  pid_t child = fork();   // before any CUDA call
  if (child == 0) fork_child(sh);
  fork_parent(sh, child);

  // handles that are none
  cudaIpcMemHandle_t zero;
  memset(&zero, 0, sizeof zero);
  void *q;
  EXPECT_ERR(cudaIpcOpenMemHandle(&q, zero, 0), cudaErrorInvalidValue);
  EXPECT_ERR(cudaIpcOpenMemHandle(&q, sh->mem[0], 2), cudaErrorInvalidValue);   // no such flag
  int *mine;
  CHECK(cudaMalloc(&mine, 4));
  EXPECT_ERR(cudaIpcCloseMemHandle(mine), cudaErrorInvalidValue);   // not opened
  CHECK(cudaFree(mine));

  fflush(stdout);
  exec_parent("/proc/self/exe");
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
