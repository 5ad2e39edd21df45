/* spawn.c: running the system compilers (posix_spawnp with argument
 * vectors, never a shell) and the temporary files between them. */
#include "drv.h"
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static Vec temps;   /* char*: removed at exit */

static void cleanup(void) {
  for (int i = 0; i < temps.n; i++) unlink(temps.v[i]);
}

static void on_signal(int sig) {
  cleanup();
  signal(sig, SIG_DFL);
  raise(sig);
}

void drv_init_cleanup(void) {
  atexit(cleanup);
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
}

char *drv_temp(const char *suffix, bool keep) {
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir) dir = "/tmp";
  char *p = xfmt("%s/cucc-XXXXXX%s", dir, suffix);
  int fd = mkstemps(p, (int)strlen(suffix));
  if (fd < 0) {
    fprintf(stderr, "cucc: error: cannot create a temporary file in %s: %s\n", dir, strerror(errno));
    exit(1);
  }
  close(fd);
  if (!keep) vec_push(&temps, p);
  return p;
}

int drv_run(Tools *t, Vec *argv) {
  vec_push(argv, NULL);
  argv->n--;
  if (t->verbose) {
    for (int i = 0; i < argv->n; i++) fprintf(stderr, "%s%s", i ? " " : "", (char *)argv->v[i]);
    fputc('\n', stderr);
  }
  pid_t pid;
  int err = posix_spawnp(&pid, argv->v[0], NULL, NULL, (char *const *)argv->v, environ);
  if (err) {
    fprintf(stderr, "cucc: error: cannot run '%s': %s\n", (char *)argv->v[0], strerror(err));
    return 1;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return 1;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return 0;
  const char *tool = strrchr(argv->v[0], '/') ? strrchr(argv->v[0], '/') + 1 : argv->v[0];
  if (WIFEXITED(st)) fprintf(stderr, "cucc: error: %s failed with exit code %d\n", tool, WEXITSTATUS(st));
  else fprintf(stderr, "cucc: error: %s was killed by signal %d\n", tool, WTERMSIG(st));
  return 1;
}

/* Like drv_run, but the tool's first line of standard output is returned
 * (NULL on failure): for questions such as `cc -dumpmachine`. */
char *drv_capture(Tools *t, Vec *argv) {
  vec_push(argv, NULL);
  argv->n--;
  if (t->verbose) {
    for (int i = 0; i < argv->n; i++) fprintf(stderr, "%s%s", i ? " " : "", (char *)argv->v[i]);
    fputc('\n', stderr);
  }
  int fd[2];
  if (pipe(fd)) return NULL;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  posix_spawn_file_actions_addclose(&fa, fd[1]);
  pid_t pid;
  int err = posix_spawnp(&pid, argv->v[0], &fa, NULL, (char *const *)argv->v, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fd[1]);
  Buf b = {0};
  char tmp[4096];
  ssize_t k;
  while (!err && ((k = read(fd[0], tmp, sizeof tmp)) > 0 || (k < 0 && errno == EINTR)))
    if (k > 0) buf_put(&b, tmp, (size_t)k);
  close(fd[0]);
  if (err) {
    fprintf(stderr, "cucc: error: cannot run '%s': %s\n", (char *)argv->v[0], strerror(err));
    return NULL;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return NULL;
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !b.s) return NULL;
  b.s[strcspn(b.s, "\r\n")] = 0;
  return b.s;
}

void drv_fail_output(const char *out) {
  if (out) unlink(out);
}

static int write_file(const char *path, const char *s) {
  FILE *f = fopen(path, "w");
  if (!f || fputs(s, f) < 0 || fclose(f)) {
    fprintf(stderr, "cucc: error: cannot write %s\n", path);
    return 1;
  }
  return 0;
}

/* .cu -> device C + host C++ -> two objects -> one relocatable object */
int drv_cu(Tools *t, const CuOpts *o, const char *path, const char *obj, Vec *hflags,
           const char *keepbase) {
  Buf dev = {0}, host = {0};
  if (fe_translate(path, o, &dev, &host)) return 1;
  char *devc = keepbase ? xfmt("%s.dev.c", keepbase) : drv_temp(".dev.c", false);
  char *hostc = keepbase ? xfmt("%s.host.cpp", keepbase) : drv_temp(".host.cpp", false);
  if (write_file(devc, dev.s ? dev.s : "") || write_file(hostc, host.s ? host.s : "")) return 1;
  char *devo = drv_temp(".dev.o", false), *hosto = drv_temp(".host.o", false);

  Vec a = {0};
  vec_push(&a, (void *)t->cc);
  vec_push(&a, "-std=gnu11");
  vec_push(&a, o->opt == 0 || o->debug ? (o->opt > 0 ? xfmt("-O%d", o->opt) : "-O0") : "-O3");
  if (o->debug) vec_push(&a, "-g");
  /* CUDA code may type-pun through pointers: no strict aliasing */
  vec_push(&a, "-fno-strict-aliasing");
  /* a __host__ __device__ function keeps its calls to the C library's math,
   * GNU ones (exp10f, sincosf) included: C declares them only with this,
   * and clang, unlike gcc, gives an undeclared one an int result */
  vec_push(&a, "-D_GNU_SOURCE");
  /* GPU arithmetic never traps and device math never sets errno: with
   * these the C compiler may compute both arms of a select (lane blends,
   * if-converted masked lane loops) and inline sqrtf and friends */
  vec_push(&a, "-fno-trapping-math");
  vec_push(&a, "-fno-math-errno");
  vec_push(&a, "-fPIC");
  /* the user's source was diagnosed by libclang; warnings about the
   * generated C (clang's extra parentheses) would only be noise */
  vec_push(&a, "-w");
  /* -Xcompiler options (e.g. -march=native, -fopenmp) reach device C too:
   * it is built by the host's C compiler */
  for (int i = 0; i < o->xc.n; i++) vec_push(&a, o->xc.v[i]);
  vec_push(&a, xfmt("-I%s", o->incdir));
  vec_push(&a, "-c");
  vec_push(&a, devc);
  vec_push(&a, "-o");
  vec_push(&a, devo);
  if (drv_run(t, &a)) return 1;

  Vec h = {0};
  vec_push(&h, (void *)t->cxx);
  vec_push(&h, xfmt("-std=%s", o->std));
  for (int i = 0; i < hflags->n; i++) vec_push(&h, hflags->v[i]);
  vec_push(&h, "-D__CUDACC__");
  vec_push(&h, "-D__CUCC__");
  vec_push(&h, "-D__CUCC_HOST__");
  vec_push(&h, xfmt("-I%s", o->incdir));
  for (int i = 0; i < o->incs.n; i++) vec_push(&h, xfmt("-I%s", (char *)o->incs.v[i]));
  for (int i = 0; i < o->macros.n; i++) vec_push(&h, o->macros.v[i]);
  /* the source's own folder, for its "..." includes */
  const char *sl = strrchr(path, '/');
  vec_push(&h, sl ? xfmt("-I%.*s", (int)(sl - path), path) : "-I.");
  vec_push(&h, "-include");
  vec_push(&h, "cuda_runtime.h");
  vec_push(&h, "-x");
  vec_push(&h, "c++");
  vec_push(&h, "-c");
  vec_push(&h, hostc);
  vec_push(&h, "-o");
  vec_push(&h, hosto);
  if (drv_run(t, &h)) return 1;

  /* one relocatable object, linked by the host compiler's own driver (not
   * `ld`, which is the build machine's linker and rejects a cross target's
   * objects); -nostdlib: no start files or libraries in a partial link */
  Vec r = {0};
  vec_push(&r, (void *)t->cxx);
  vec_push(&r, "-r");
  vec_push(&r, "-nostdlib");
  vec_push(&r, devo);
  vec_push(&r, hosto);
  vec_push(&r, "-o");
  vec_push(&r, (void *)obj);
  return drv_run(t, &r);
}
