// A per-thread arena for tree-sitter's allocations during one parse. A scan parses thousands of
// small files; with libc's allocator a parse spends a good part of its time in malloc and free, and
// deleting the tree walks every node only to free it. In the arena a block costs a bump of a pointer
// (or a pop from a list of freed blocks of its size), and the whole parse is taken back at once.
//
// Each thread reserves one range of address space (no memory until touched): whether a pointer is the
// arena's is then one comparison, exact, whatever thread or state asks. Anything outside the range
// (blocks made while no arena was open, or after the range ran out) goes to libc as before.
#include "parse_arena.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <tree_sitter/api.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOADAUDIT_ARENA_OFF 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LOADAUDIT_ARENA_OFF 1
#endif

// Address space per thread. A parse of a 5 KB file holds well under a megabyte at once; beyond the
// range (files of tens of MB), blocks come from libc.
#define RESERVATION ((size_t)512 << 20)
#define HEADER 16
// Freed blocks are kept on lists by size: multiples of 16 up to 1 KB, then powers of two.
#define SMALL_LIMIT 1024
#define CLASSES (SMALL_LIMIT / 16 + 48)

typedef struct {
    uint8_t *base;      // NULL until the first open on this thread (or when the reservation failed)
    uint8_t *next;      // the bump pointer
    uint8_t *touched;   // the highest address handed out since the pages were last given back
    int open;
    int unavailable;    // mmap refused: this thread uses libc only
    void *free_lists[CLASSES];
    size_t requested;
    size_t peak;
} Arena;

static __thread Arena arena;
static pthread_key_t release_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int installed;

static void release_reservation(void *base) {
    if (base) munmap(base, RESERVATION);
}

static void make_key(void) { pthread_key_create(&release_key, release_reservation); }

static inline int is_arena_block(const void *pointer) {
    const uint8_t *bytes = pointer;
    return arena.base && bytes >= arena.base && bytes < arena.base + RESERVATION;
}

// The capacity a request gets and the list its block returns to.
static inline size_t capacity_for(size_t size, int *list) {
    if (size <= SMALL_LIMIT) {
        size_t rounded = size == 0 ? 16 : (size + 15) & ~(size_t)15;
        *list = (int)(rounded / 16) - 1;
        return rounded;
    }
    int shift = 64 - __builtin_clzll((unsigned long long)(size - 1));
    *list = SMALL_LIMIT / 16 + (shift - 10);
    return (size_t)1 << shift;
}

static inline size_t capacity_of(const void *pointer) { return *(const size_t *)((const uint8_t *)pointer - HEADER); }

static inline void note_bump(void) {
    if (arena.next > arena.touched) arena.touched = arena.next;
    if ((size_t)(arena.next - arena.base) > arena.peak) arena.peak = (size_t)(arena.next - arena.base);
}

static void *arena_malloc(size_t size) {
    if (!arena.open || size > RESERVATION / 4) return malloc(size);
    int list;
    size_t capacity = capacity_for(size, &list);
    arena.requested += capacity;
    if (list < CLASSES && arena.free_lists[list]) {
        void *block = arena.free_lists[list];
        arena.free_lists[list] = *(void **)block;
        return block;
    }
    if ((size_t)(arena.base + RESERVATION - arena.next) < HEADER + capacity) return malloc(size);
    uint8_t *block = arena.next + HEADER;
    *(size_t *)arena.next = capacity;
    arena.next = block + capacity;
    note_bump();
    return block;
}

static void arena_free(void *pointer) {
    if (!pointer) return;
    if (!is_arena_block(pointer)) {
        free(pointer);
        return;
    }
    // A block of a closed arena is already taken back (and never expected here).
    if (!arena.open) return;
    int list;
    capacity_for(capacity_of(pointer), &list);
    if (list >= CLASSES) return;
    *(void **)pointer = arena.free_lists[list];
    arena.free_lists[list] = pointer;
}

static void *arena_calloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) return NULL;
    if (!arena.open) return calloc(count, size);
    void *block = arena_malloc(count * size);
    if (block) memset(block, 0, count * size);
    return block;
}

static void *arena_realloc(void *pointer, size_t size) {
    if (!pointer) return arena_malloc(size);
    if (!is_arena_block(pointer)) return realloc(pointer, size);
    size_t old = capacity_of(pointer);
    if (size <= old) return pointer;
    // The last block handed out grows where it is.
    int list;
    size_t capacity = capacity_for(size, &list);
    if (arena.open && (uint8_t *)pointer + old == arena.next && (size_t)(arena.base + RESERVATION - (uint8_t *)pointer) >= capacity) {
        *(size_t *)((uint8_t *)pointer - HEADER) = capacity;
        arena.requested += capacity - old;
        arena.next = (uint8_t *)pointer + capacity;
        note_bump();
        return pointer;
    }
    void *moved = arena.open ? arena_malloc(size) : malloc(size);
    if (!moved) return NULL;
    memcpy(moved, pointer, old);
    arena_free(pointer);
    return moved;
}

static void install(void) {
#ifndef LOADAUDIT_ARENA_OFF
    ts_set_allocator(arena_malloc, arena_calloc, arena_realloc, arena_free);
    installed = 1;
#endif
}

void loadaudit_arena_install(void) { pthread_once(&install_once, install); }

int loadaudit_arena_is_open(void) { return arena.open; }

void loadaudit_arena_free(void *pointer) { arena_free(pointer); }

int loadaudit_arena_open(void) {
    if (!installed || arena.unavailable || arena.open) return 0;
    if (!arena.base) {
        void *base = mmap(NULL, RESERVATION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED) {
            arena.unavailable = 1;
            return 0;
        }
        pthread_once(&key_once, make_key);
        pthread_setspecific(release_key, base);
        arena.base = arena.next = arena.touched = base;
    }
    arena.open = 1;
    arena.requested = 0;
    arena.peak = 0;
    return 1;
}

void loadaudit_arena_close(size_t keep_bytes) {
    if (!arena.open) return;
    arena.open = 0;
    memset(arena.free_lists, 0, sizeof arena.free_lists);
    arena.next = arena.base;
    keep_bytes = (keep_bytes + 4095) & ~(size_t)4095;
    if ((size_t)(arena.touched - arena.base) > keep_bytes) {
        madvise(arena.base + keep_bytes, (size_t)(arena.touched - arena.base) - keep_bytes, MADV_DONTNEED);
        arena.touched = arena.base + keep_bytes;
    }
}

size_t loadaudit_arena_bytes_requested(void) { return arena.requested; }

size_t loadaudit_arena_bytes_peak(void) { return arena.peak; }
