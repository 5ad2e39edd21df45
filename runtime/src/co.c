/* co.c: coroutines, each on a stack of its own: sm.c's resident blocks
 * (a block waiting at a barrier while its SM runs another) and warps.c's
 * warps (a warp waiting for another warp of its block).
 *
 * A switch saves where the running coroutine is and resumes another. On
 * x86-64 and aarch64 it is a few instructions of our own (rt_co_swap: push
 * the callee-saved registers, swap stack pointers, pop), a third of
 * glibc's _setjmp/_longjmp pair, whose longjmp also walks cleanup handlers;
 * it was 35 ns of every barrier of every block. Elsewhere: ucontext to
 * enter a coroutine's stack the first time (getcontext and setcontext
 * save and restore the signal mask: system calls) and _setjmp/_longjmp to
 * switch. */
/* glibc's fortified longjmp rejects jumps between stacks ("longjmp causes
 * uninitialized stack frame"), which are what coroutines do. */
#undef _FORTIFY_SOURCE
#include "rt.h"

#ifdef RT_CO_ASM
void rt_co_swap(void **save, void *to);
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl rt_co_swap\n"
        ".hidden rt_co_swap\n"
        ".type rt_co_swap, @function\n"
        "rt_co_swap:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size rt_co_swap, .-rt_co_swap\n");
#else
__asm__(".text\n"
        ".globl rt_co_swap\n"
        ".hidden rt_co_swap\n"
        ".type rt_co_swap, %function\n"
        "rt_co_swap:\n"
        "  sub sp, sp, #160\n"
        "  stp x19, x20, [sp, #0]\n  stp x21, x22, [sp, #16]\n  stp x23, x24, [sp, #32]\n"
        "  stp x25, x26, [sp, #48]\n  stp x27, x28, [sp, #64]\n  stp x29, x30, [sp, #80]\n"
        "  stp d8, d9, [sp, #96]\n  stp d10, d11, [sp, #112]\n  stp d12, d13, [sp, #128]\n  stp d14, d15, [sp, #144]\n"
        "  mov x9, sp\n  str x9, [x0]\n  mov sp, x1\n"
        "  ldp x19, x20, [sp, #0]\n  ldp x21, x22, [sp, #16]\n  ldp x23, x24, [sp, #32]\n"
        "  ldp x25, x26, [sp, #48]\n  ldp x27, x28, [sp, #64]\n  ldp x29, x30, [sp, #80]\n"
        "  ldp d8, d9, [sp, #96]\n  ldp d10, d11, [sp, #112]\n  ldp d12, d13, [sp, #128]\n  ldp d14, d15, [sp, #144]\n"
        "  add sp, sp, #160\n"
        "  ret\n"
        ".size rt_co_swap, .-rt_co_swap\n");
#endif

/* A fresh coroutine's stack, laid out as rt_co_swap leaves a waiting one,
 * so that switching to it "returns" into entry (which never returns). */
void rt_co_make(rt_co *c, char *stack, size_t size, void (*entry)(void)) {
  uintptr_t top = ((uintptr_t)(stack + size)) & ~(uintptr_t)15;
#if defined(__x86_64__)
  void **p = (void **)top;
  *--p = NULL;                 /* entry's own return address */
  *--p = (void *)entry;        /* where rt_co_swap's ret goes */
  for (int i = 0; i < 6; i++) *--p = NULL;   /* rbp rbx r12..r15 */
  c->sp = p;
#else
  void **p = (void **)(top - 160);
  memset(p, 0, 160);
  p[11] = (void *)entry;       /* x30: where ret goes; sp ends at top */
  c->sp = p;
#endif
}

void rt_co_switch(rt_co *from, rt_co *to) { rt_co_swap(&from->sp, to->sp); }
#else
void rt_co_make(rt_co *c, char *stack, size_t size, void (*entry)(void)) {
  getcontext(&c->ctx);
  c->ctx.uc_stack.ss_sp = stack;
  c->ctx.uc_stack.ss_size = size;
  c->ctx.uc_link = NULL;
  makecontext(&c->ctx, entry, 0);
  c->fresh = 1;
}

void rt_co_switch(rt_co *from, rt_co *to) {
  if (_setjmp(from->jb)) return;   /* resumed */
  if (to->fresh) {
    to->fresh = 0;
    setcontext(&to->ctx);
  }
  _longjmp(to->jb, 1);
}
#endif
