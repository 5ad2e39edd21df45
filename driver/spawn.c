/* spawn.c: running the system compilers (posix_spawnp with argument
 * vectors, never a shell) and the temporary files between them. */
#include "drv.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

double drv_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* An argument as a shell would need it: build systems (CMake reads nvcc's
 * -v output for the link line) split these lines like a shell. */
char *drv_quote(const char *s) {
  if (*s && !s[strcspn(s, " \t\n\"'\\$`*?[]{}();&|<>#~")]) return xstrdup(s);
  Buf b = {0};
  buf_puts(&b, "\"");
  for (; *s; s++) {
    if (strchr("\"\\$`", *s)) buf_put(&b, "\\", 1);
    buf_put(&b, s, 1);
  }
  buf_puts(&b, "\"");
  return b.s;
}

void drv_print_cmd(Vec *argv) {
  for (int i = 0; i < argv->n; i++) fprintf(stderr, "%s%s", i ? " " : "", drv_quote(argv->v[i]));
  fputc('\n', stderr);
}

/* Starts argv (with `out`, its standard output goes to that file): its
 * pid, 0 where --dryrun runs nothing, -1 if it cannot start. */
long drv_spawn(Tools *t, Vec *argv, const char *out) {
  vec_push(argv, NULL);
  argv->n--;
  if (t->verbose || t->dryrun) drv_print_cmd(argv);
  if (t->dryrun) return 0;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (out) posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  int err = posix_spawnp(&pid, argv->v[0], &fa, NULL, (char *const *)argv->v, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err) {
    fprintf(stderr, "cucc: error: cannot run '%s': %s\n", (char *)argv->v[0], strerror(err));
    return -1;
  }
  return pid;
}

/* Waits for what drv_spawn started from argv; 0 if it succeeded. */
int drv_wait(long pid, Vec *argv) {
  if (pid <= 0) return pid < 0;
  int st;
  while (waitpid((pid_t)pid, &st, 0) < 0)
    if (errno != EINTR) return 1;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return 0;
  const char *tool = strrchr(argv->v[0], '/') ? strrchr(argv->v[0], '/') + 1 : argv->v[0];
  if (WIFEXITED(st)) fprintf(stderr, "cucc: error: %s failed with exit code %d\n", tool, WEXITSTATUS(st));
  else fprintf(stderr, "cucc: error: %s was killed by signal %d\n", tool, WTERMSIG(st));
  return 1;
}

/* Runs argv; with `out`, its standard output goes to that file. */
int drv_run_out(Tools *t, Vec *argv, const char *out) { return drv_wait(drv_spawn(t, argv, out), argv); }

int drv_run(Tools *t, Vec *argv) { return drv_run_out(t, argv, NULL); }

/* Like drv_run, but the tool's first line of standard output is returned
 * (NULL on failure): for questions such as `cc -dumpmachine`. Quiet: its
 * standard error goes nowhere and a tool that cannot start is not
 * reported (a question that the tool may not understand). */
static char *capture(Tools *t, Vec *argv, bool quiet) {
  vec_push(argv, NULL);
  argv->n--;
  if (t->verbose) drv_print_cmd(argv);
  int fd[2];
  if (pipe(fd)) return NULL;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  posix_spawn_file_actions_addclose(&fa, fd[1]);
  if (quiet) posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
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
    if (!quiet) fprintf(stderr, "cucc: error: cannot run '%s': %s\n", (char *)argv->v[0], strerror(err));
    return NULL;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return NULL;
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !b.s) return NULL;
  b.s[strcspn(b.s, "\r\n")] = 0;
  return b.s;
}

char *drv_capture(Tools *t, Vec *argv) { return capture(t, argv, false); }
char *drv_capture_quiet(Tools *t, Vec *argv) { return capture(t, argv, true); }

/* An output the command replaces or a failure leaves partial: removed if
 * it is a regular file. `-o /dev/null` (a syntax check, as with nvcc and
 * gcc) names a device that root could otherwise unlink for everyone. */
void drv_unlink_output(const char *out) {
  struct stat st;
  if (out && !lstat(out, &st) && S_ISREG(st.st_mode)) unlink(out);
}

void drv_fail_output(const char *out) { drv_unlink_output(out); }

int drv_write_file(const char *path, const char *s) {
  FILE *f = fopen(path, "w");
  if (!f || fputs(s, f) < 0 || fclose(f)) {
    fprintf(stderr, "cucc: error: cannot write %s\n", path);
    return 1;
  }
  return 0;
}
