// gpu_behaviour.cu: what programs rely on that CUDA's documents leave to the
// GPU (issue 22 item 4), recorded on a real H100 (gpu_behaviour.expected,
// nvcc -arch=sm_90, CUDA 13): device printf's buffer (when it is flushed,
// what its size limit drops), shared pointer arithmetic in 32 bits,
// __syncwarp with partial masks, warp functions whose mask omits a lane
// that calls them, and the errors after a device assert.
//
// The program runs itself as a child ("child") with stdout and stderr in
// one pipe, and reads that transcript as a user's terminal would show it.
// Lines that threads print in an order the GPU does not fix are sorted
// within each run of them; assert messages keep their file's base name.
// With the expected file as argv[1] it compares; with "-" it prints the
// transcript (how the .expected file was made, on the H100).
#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

#define E(call) printf("%s -> %d\n", #call, (int)(call))

// ---- device printf ----
__global__ void hello(int tag) { printf("dev: hello %d from %d\n", tag, threadIdx.x); }
__global__ void quiet(int *p) { if (p) p[threadIdx.x] = threadIdx.x; }
__global__ void many(int n) {   // one thread, in order: which survive a full buffer
  for (int i = 0; i < n; i++) printf("dev: seq %05d\n", i);
}
__global__ void wide(int n) {   // records with more arguments
  for (int i = 0; i < n; i++) printf("dev: wide %05d %d %f %s %lld\n", i, i * 2, 0.5 * i, "str", (long long)i << 33);
}
__global__ void chatty() { printf("dev: chatty %02d %03d\n", blockIdx.x, threadIdx.x); }

// ---- shared pointer arithmetic: 32-bit addresses that wrap ----
__global__ void wrap(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t * 10;
  __syncthreads();
  int *p = s + 32;
  unsigned x = t;
  out[t] = t < 32 ? p[~x] : 0;             // p - (x + 1): s[31 - t]
  char *c = (char *)s;
  out[64 + t] = *(int *)(c + 128 + (unsigned)(-4 * (t % 8)));   // s[32 - t % 8]
}

// ---- __syncwarp with partial masks ----
__global__ void partial(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x, lane = t % 32;
  if (lane < 16) {
    s[t] = t * 3;
    __syncwarp(0x0000ffffu);
    out[t] = s[(t & ~31) + 15 - lane];
  } else {
    s[t] = t * 5;
    __syncwarp(0xffff0000u);
    out[t] = s[(t & ~31) + 47 - lane];
  }
  __syncwarp();
  if (lane % 2 == 0) {
    s[t] += 1;
    __syncwarp(0x55555555u);
    out[64 + t] = s[(t & ~31) + (lane + 2) % 32];
  }
}

// ---- warp functions whose mask omits lanes that call them ----
__global__ void omit(unsigned *out) {
  int lane = threadIdx.x % 32;
  unsigned m = 0x0000ffffu;   // every lane calls; lanes 16-31 are not in the mask
  out[0 * 32 + lane] = __ballot_sync(m, lane % 3 == 0);
  out[1 * 32 + lane] = __any_sync(m, lane == 20);
  out[2 * 32 + lane] = __all_sync(m, lane < 20);
  out[3 * 32 + lane] = __shfl_sync(m, lane * 10, (lane + 1) % 32);
  out[4 * 32 + lane] = __shfl_down_sync(m, lane * 10, 2);
  out[5 * 32 + lane] = __reduce_add_sync(m, lane);
  out[6 * 32 + lane] = __match_any_sync(m, lane / 4);
}

// ---- after an assert ----
__global__ void asserts(int *p) {
  printf("dev: before assert %d %d\n", blockIdx.x, threadIdx.x);
  assert(threadIdx.x != 3);
  p[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

static void child() {
  setvbuf(stdout, NULL, _IOLBF, 0);
  size_t v = 0;
  E(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
  printf("host: printf fifo %zu\n", v);
  E(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 600000));
  E(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
  printf("host: printf fifo %zu\n", v);
  E(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 8192));
  E(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
  printf("host: printf fifo %zu\n", v);

  printf("host: 1 before launch\n");
  hello<<<1, 4>>>(1);
  printf("host: 1 after launch\n");
  E(cudaDeviceSynchronize());
  printf("host: 1 after sync\n");

  hello<<<1, 2>>>(2);
  usleep(200000);
  printf("host: 2 before a second launch\n");
  quiet<<<1, 32>>>(nullptr);
  usleep(200000);
  printf("host: 2 after the second launch\n");
  E(cudaDeviceSynchronize());

  int *d;
  int h[128];
  E(cudaMalloc(&d, 128 * sizeof(int)));
  hello<<<1, 2>>>(3);
  usleep(200000);
  printf("host: 3 before a blocking memcpy\n");
  E(cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost));
  printf("host: 3 after the memcpy\n");
  E(cudaDeviceSynchronize());

  cudaStream_t st;
  E(cudaStreamCreate(&st));
  hello<<<1, 2, 0, st>>>(4);
  usleep(200000);
  printf("host: 4 before stream sync\n");
  E(cudaStreamSynchronize(st));
  printf("host: 4 after stream sync\n");
  hello<<<1, 2, 0, st>>>(5);
  cudaEvent_t ev;
  E(cudaEventCreate(&ev));
  E(cudaEventRecord(ev, st));
  usleep(200000);
  printf("host: 5 before event sync\n");
  E(cudaEventSynchronize(ev));
  printf("host: 5 after event sync\n");
  E(cudaDeviceSynchronize());

  printf("host: 6 a full buffer, one thread\n");
  many<<<1, 1>>>(30000);
  E(cudaDeviceSynchronize());
  printf("host: 7 a full buffer, wide records\n");
  wide<<<1, 1>>>(10000);
  E(cudaDeviceSynchronize());
  printf("host: 8 a full buffer, many threads\n");
  chatty<<<64, 256>>>();
  E(cudaDeviceSynchronize());
  E(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20));
  E(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
  printf("host: printf fifo %zu\n", v);

  wrap<<<1, 64>>>(d);
  E(cudaMemcpy(h, d, 128 * sizeof(int), cudaMemcpyDeviceToHost));
  printf("host: wrap");
  for (int i = 0; i < 72; i++) printf(" %d", h[i]);
  printf("\n");

  partial<<<1, 64>>>(d);
  E(cudaMemcpy(h, d, 128 * sizeof(int), cudaMemcpyDeviceToHost));
  printf("host: partial");
  for (int i = 0; i < 128; i++) printf(" %d", i >= 64 && (i - 64) % 2 ? -1 : h[i]);
  printf("\n");

  unsigned *u;
  E(cudaMalloc(&u, 7 * 32 * sizeof(unsigned)));
  omit<<<1, 32>>>(u);
  unsigned hu[7 * 32];
  E(cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost));
  for (int k = 0; k < 7; k++) {
    printf("host: omit %d", k);
    for (int i = 0; i < 32; i++) printf(" %x", hu[k * 32 + i]);
    printf("\n");
  }

  printf("host: 9 an assert\n");
  asserts<<<2, 8>>>(d);
  E(cudaGetLastError());
  E(cudaDeviceSynchronize());
  E(cudaGetLastError());
  E(cudaGetLastError());
  E(cudaPeekAtLastError());
  int *d2 = nullptr;
  E(cudaMalloc(&d2, 16));
  E(cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost));
  quiet<<<1, 32>>>(d);
  E(cudaGetLastError());
  E(cudaDeviceSynchronize());
  E(cudaStreamSynchronize(st));
  E(cudaFree(d));
  // (after the reset the H100 answered cudaGetLastError 710 and then
  // cudaErrorDevicesUnavailable to a cudaMalloc: its compute mode, not
  // CUDA's rule, which is a fresh context)
  E(cudaDeviceReset());
  printf("host: end\n");
}

static std::vector<std::string> split_lines(const std::string &all) {
  std::vector<std::string> lines;
  size_t a = 0;
  while (a < all.size()) {
    size_t b = all.find('\n', a);
    if (b == std::string::npos) b = all.size();
    lines.push_back(all.substr(a, b - a));
    a = b + 1;
  }
  return lines;
}

// the transcript as compared: runs of lines threads print in no fixed
// order sorted; a full printf buffer's lines (seq, wide, chatty) as
// whether some were lost and the last; an assert's path cut to its base name
static std::vector<std::string> normal(const std::string &all) {
  std::vector<std::string> lines = split_lines(all), out, run;
  std::string key;   // the summarised run's kind
  size_t cnt = 0;
  std::string last;
  auto flush = [&]() {
    std::sort(run.begin(), run.end());
    out.insert(out.end(), run.begin(), run.end());
    run.clear();
    // which lines a full buffer keeps is a race with the host draining it
    // on the GPU: the record is that some are lost, whole, and (one
    // thread) the last is kept
    size_t all = key == "dev: seq" ? 30000 : key == "dev: wide" ? 10000 : 64 * 256;
    if (cnt)
      out.push_back(key + ": " + (cnt == all ? "every line" : cnt < all ? "some lines lost" : "more lines than printed") +
                    (key == "dev: chatty" ? "" : ", the last '" + last + "'"));
    cnt = 0;
  };
  for (std::string l : lines) {
    size_t as = l.find("Assertion");
    if (as != std::string::npos) {
      size_t sl = l.rfind('/', l.find(':'));
      if (sl != std::string::npos) l = l.substr(sl + 1);
    }
    std::string k;
    for (const char *s : {"dev: seq", "dev: wide", "dev: chatty"})
      if (!l.compare(0, strlen(s), s)) k = s;
    if (!k.empty()) {
      if (k != key || !cnt) flush(), key = k;
      last = l;
      cnt++;
      continue;
    }
    if (cnt) flush();
    if (!l.compare(0, 5, "dev: ") || as != std::string::npos) run.push_back(l);
    else flush(), out.push_back(l);
  }
  flush();
  return out;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "child")) {
    child();
    return 0;
  }
  int fd[2];
  if (pipe(fd)) return 2;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  char self[] = "/proc/self/exe", arg[] = "child";
  char *cargv[] = {self, arg, nullptr};
  pid_t pid;
  if (posix_spawn(&pid, self, &fa, nullptr, cargv, environ)) return 2;
  close(fd[1]);
  std::string all;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd[0], buf, sizeof buf)) > 0) all.append(buf, (size_t)n);
  int st = 0;
  waitpid(pid, &st, 0);
  std::vector<std::string> got = normal(all);
  char ex[64];
  snprintf(ex, sizeof ex, "host: exit %d", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
  got.push_back(ex);
  if (argc > 1 && !strcmp(argv[1], "-")) {
    for (auto &l : got) printf("%s\n", l.c_str());
    return 0;
  }
  std::vector<std::string> want;
  if (argc > 1) {
    FILE *f = fopen(argv[1], "r");
    if (!f) return 2;
    std::string w;
    while ((n = (ssize_t)fread(buf, 1, sizeof buf, f)) > 0) w.append(buf, (size_t)n);
    fclose(f);
    want = split_lines(w);
  }
  int bad = 0;
  size_t m = std::max(got.size(), want.size());
  for (size_t i = 0; i < m; i++) {
    const char *g = i < got.size() ? got[i].c_str() : "(none)", *x = i < want.size() ? want[i].c_str() : "(none)";
    if (strcmp(g, x)) {
      if (bad++ < 30) printf("line %zu: got '%s', H100 '%s'\n", i + 1, g, x);
    }
  }
  printf("%zu lines compared, %d differ\n%s\n", m, bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}
