/* printf.c: device printf, buffered as a GPU buffers it.
 *
 * What an H100 does (tests/warp/gpu_behaviour.cu): a kernel's lines go to
 * a buffer of cudaLimitPrintfFifoSize bytes and reach stdout after the
 * kernel has completed, shortly (the driver polls) or at the host's next
 * synchronizing call, whichever comes first: `k<<<...>>>(); printf("host");
 * cudaDeviceSynchronize();` shows the host's line first. A buffer that
 * fills while the kernel runs loses lines, whole ones, the newest kept. A
 * failed device assert's message goes the same way, after the lines the
 * kernel printed before it.
 *
 * Here: each line is formatted when printed (the arguments may be gone
 * later) and queued per device with its cost in the buffer (a GPU stores
 * a header, the format and 8 bytes per argument, not the text: about 32
 * bytes and 8 per argument here); the queue
 * drops its oldest lines past the limit. It is written out at the calls
 * that synchronize with the device (rt_take_sticky, which each of them
 * makes), some milliseconds after a kernel with output completes (a
 * thread of our own, the driver's poll: the lines queued when it
 * completed, not those of a kernel that runs since), and at exit. */
#include "rt.h"
#include <stdarg.h>
#include <time.h>

typedef struct Line {
  struct Line *next;
  size_t cost;
  bool err;   /* an assert's message: stderr */
  char s[];
} Line;

typedef struct Fifo {
  Line *head, *tail;
  size_t bytes, n;
  size_t ready;   /* the first lines, of kernels that completed: the poll's */
  bool used;   /* a kernel has printed: the limit is fixed */
} Fifo;

static Fifo fifos[RT_MAXDEV];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;    /* the queues */
static pthread_mutex_t wmu = PTHREAD_MUTEX_INITIALIZER;   /* one writer at a time, in order */
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static bool pending, started;
static _Atomic size_t queued;   /* lines in every queue: a flush with none takes no lock */
static void flush_exit(void);

/* the arguments a format takes (CUDA's printf returns their count) */
static int nargs(const char *f) {
  int n = 0;
  for (; *f; f++) {
    if (*f != '%') continue;
    if (*++f == '%') continue;
    for (; *f && !strchr("diouxXeEfFgGaAcspn", *f); f++)
      if (*f == '*') n++;
    if (!*f) break;
    n++;
  }
  return n;
}

static void put(int dev, Line *l) {
  pthread_mutex_lock(&mu);
  Fifo *q = &fifos[dev];
  if (!q->used) {
    q->used = true;
    static bool hooked;
    if (!hooked) hooked = true, atexit(flush_exit);
  }
  if (q->tail) q->tail->next = l;
  else q->head = l;
  q->tail = l;
  q->bytes += l->cost;
  q->n++;
  queued++;
  size_t lim = rt_printf_limit(dev);
  while (q->bytes > lim && q->head != l) {
    Line *o = q->head;
    q->head = o->next;
    q->bytes -= o->cost;
    q->n--;
    queued--;
    if (q->ready) q->ready--;
    free(o);
  }
  pthread_mutex_unlock(&mu);
}

static Line *line_new(size_t n) {
  Line *l = malloc(sizeof *l + n + 1);
  if (l) l->next = NULL, l->err = false;
  return l;
}

int cu_printf(const char *fmt, ...) {
  if (!fmt) return -1;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return -2;
  Line *l = line_new((size_t)n);
  if (!l) return -2;
  if ((size_t)n < sizeof buf) memcpy(l->s, buf, (size_t)n + 1);
  else {
    va_start(ap, fmt);
    vsnprintf(l->s, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  int a = nargs(fmt);
  l->cost = 32 + 8 * (size_t)a;
  put(rt_run_dev(), l);
  return a;
}

void rt_printf_err(const char *msg) {
  size_t n = strlen(msg);
  Line *l = line_new(n + 1);
  if (!l) return;
  memcpy(l->s, msg, n);
  l->s[n] = '\n';
  l->s[n + 1] = 0;
  l->err = true;
  l->cost = 16 + n;
  put(rt_run_dev(), l);
}

bool rt_printf_used(int dev) {
  pthread_mutex_lock(&mu);
  bool u = fifos[dev].used;
  pthread_mutex_unlock(&mu);
  return u;
}

/* every device's lines (or the ready ones), oldest first (device by
 * device: a GPU's buffers are per device too) */
static void flush(bool ready) {
  if (!queued) return;   /* (every synchronizing call, every launch: the common case) */
  pthread_mutex_lock(&wmu);
  pthread_mutex_lock(&mu);
  Line *all[RT_MAXDEV];
  bool any = false;
  for (int d = 0; d < RT_MAXDEV; d++) {
    Fifo *q = &fifos[d];
    size_t k = ready ? q->ready : q->n;
    all[d] = k ? q->head : NULL;
    any |= k != 0;
    Line *last = NULL;
    for (size_t i = 0; i < k; i++) {
      last = last ? last->next : q->head;
      q->bytes -= last->cost;
    }
    if (last) {
      q->head = last->next;
      last->next = NULL;
      if (!q->head) q->tail = NULL;
    }
    q->n -= k;
    queued -= k;
    q->ready = 0;
  }
  pthread_mutex_unlock(&mu);
  if (any) {
    bool err = false;
    for (int d = 0; d < RT_MAXDEV; d++)
      for (Line *l = all[d], *nx; l; l = nx) {
        nx = l->next;
        if (l->err != err) fflush(err ? stderr : stdout), err = l->err;
        fputs(l->s, err ? stderr : stdout);
        free(l);
      }
    fflush(stdout);
    fflush(stderr);
  }
  pthread_mutex_unlock(&wmu);
}

void rt_printf_flush(void) { flush(false); }
static void flush_exit(void) { flush(false); }

static void *poller(void *arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
  for (;;) {
    while (!pending) pthread_cond_wait(&cv, &mu);
    pending = false;
    pthread_mutex_unlock(&mu);
    nanosleep(&(struct timespec){0, 20000000}, NULL);   /* 20 ms */
    flush(true);
    pthread_mutex_lock(&mu);
  }
  return NULL;
}

/* a kernel on dev completed: its lines shortly */
void rt_printf_done(int dev) {
  pthread_mutex_lock(&mu);
  fifos[dev].ready = fifos[dev].n;
  if (fifos[dev].head) {
    if (!started) {
      pthread_t t;
      pthread_attr_t at;
      pthread_attr_init(&at);
      pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
      started = !pthread_create(&t, &at, poller, NULL);
      pthread_attr_destroy(&at);
    }
    pending = true;
    pthread_cond_signal(&cv);
  }
  bool flush_now = !started && fifos[dev].head;
  pthread_mutex_unlock(&mu);
  if (flush_now) rt_printf_flush();   /* (no thread: at once) */
}
