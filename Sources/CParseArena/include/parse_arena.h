#ifndef LOADAUDIT_PARSE_ARENA_H
#define LOADAUDIT_PARSE_ARENA_H

#include <stddef.h>

/// Makes tree-sitter allocate through the parse arena (`ts_set_allocator`). Call once, before any
/// tree-sitter object exists; later calls do nothing. Outside an open arena the allocator is libc's.
void loadaudit_arena_install(void);

/// Opens this thread's arena: until `loadaudit_arena_close`, every tree-sitter allocation on this
/// thread comes from it, and freeing such memory only returns it to the arena's lists. 0 when it was
/// not opened (not installed, no address space, or already open: then the open one serves, and only
/// its opener closes it).
int loadaudit_arena_open(void);

/// Whether this thread's arena is open.
int loadaudit_arena_is_open(void);

/// Closes this thread's arena and takes back all its memory at once. Nothing allocated while it was
/// open may be used (or freed) afterwards: the parser and tree made inside are abandoned, not deleted.
/// Keeps up to `keep_bytes` of its blocks for the next open, frees the rest.
void loadaudit_arena_close(size_t keep_bytes);

/// Frees memory tree-sitter handed to the caller (`ts_node_string`): with the arena installed it may
/// be the arena's, which libc's `free` must never see.
void loadaudit_arena_free(void *pointer);

/// Bytes handed out by this thread's arena since it was last opened (whether freed or not), and the
/// most of its range in use at once then: for the trace and the tests.
size_t loadaudit_arena_bytes_requested(void);
size_t loadaudit_arena_bytes_peak(void);

#endif
