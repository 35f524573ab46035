/*
 * grow: the one growth rule of the arrays built an element at a time. The
 * capacity doubles (from 16), so n appends cost O(n) copies in all.
 *
 *	if (GROW(rows, alloc, n + 1) != 0)
 *		return err_set("out of memory");
 *	rows[n++] = row;
 *
 * The caller words the message: a reader says which file it was reading.
 */
#ifndef COREPLAN_GROW_H
#define COREPLAN_GROW_H

#include <stddef.h>

/*
 * Room for at least `need` elements of `elem` bytes in the malloc'd array
 * whose pointer is at `array` (a T **; the pointer may move) and whose
 * capacity is *alloc. 0, or -1 when out of memory or the size overflows
 * (the array and *alloc are then as they were).
 */
int grow_array(void *array, size_t *alloc, size_t need, size_t elem);

/* grow_array on a pointer variable and its capacity, sized by the pointer's type. */
#define GROW(items, alloc, need) grow_array(&(items), &(alloc), (need), sizeof(*(items)))

#endif
