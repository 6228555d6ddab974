/* Shared between the WET reader, loader and writers. */
#ifndef TK_WET_INTERNAL_H
#define TK_WET_INTERNAL_H

/* Most use ports one instruction may declare (a real instruction has a few). */
#define WET_MAX_PORTS 65535u

#endif
