/* Every protocol layout the router speaks: one line per protocol (its header above it). */
#ifndef YR_LAYOUT_TABLE_H
#define YR_LAYOUT_TABLE_H

#include "layouts/jupiter_lend.h"
#include "layouts/klend.h"
#include "layouts/marginfi.h"
#include "layouts/save.h"
#include "layouts/test_venue.h"
#include "layouts/venue_layout.h"

static const YrVenueLayout YR_VENUE_LAYOUTS[] = {
    YR_LAYOUT_TEST_VENUE,
    YR_LAYOUT_KLEND,
    YR_LAYOUT_JUPITER_LEND,
    YR_LAYOUT_SAVE,
    YR_LAYOUT_MARGINFI,
};

#define YR_VENUE_LAYOUT_COUNT (sizeof(YR_VENUE_LAYOUTS) / sizeof(YR_VENUE_LAYOUTS[0]))

#endif
