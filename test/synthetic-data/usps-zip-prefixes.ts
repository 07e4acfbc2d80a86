/**
 * USPS three-digit ZIP prefix ranges of each state (USPS Publication 65, National Five-Digit ZIP Code directory),
 * kept apart from the plugin's data so the tests check it against an independent source.
 */
export const USPS_ZIP_PREFIX_RANGES: Readonly<Record<string, ReadonlyArray<readonly [number, number]>>> = {
  AL: [[350, 369]], AK: [[995, 999]], AZ: [[850, 865]], AR: [[716, 729]], CA: [[900, 961]], CO: [[800, 816]],
  CT: [[60, 69]], DE: [[197, 199]], DC: [[200, 205]], FL: [[320, 349]], GA: [[300, 319], [398, 399]], HI: [[967, 968]],
  ID: [[832, 838]], IL: [[600, 629]], IN: [[460, 479]], IA: [[500, 528]], KS: [[660, 679]], KY: [[400, 427]],
  LA: [[700, 714]], ME: [[39, 49]], MD: [[206, 219]], MA: [[10, 27]], MI: [[480, 499]], MN: [[550, 567]],
  MS: [[386, 397]], MO: [[630, 658]], MT: [[590, 599]], NE: [[680, 693]], NV: [[889, 898]], NH: [[30, 38]],
  NJ: [[70, 89]], NM: [[870, 884]], NY: [[100, 149]], NC: [[270, 289]], ND: [[580, 588]], OH: [[430, 459]],
  OK: [[730, 749]], OR: [[970, 979]], PA: [[150, 196]], RI: [[28, 29]], SC: [[290, 299]], SD: [[570, 577]],
  TN: [[370, 385]], TX: [[750, 799]], UT: [[840, 847]], VT: [[50, 59]], VA: [[220, 246]], WA: [[980, 994]],
  WV: [[247, 268]], WI: [[530, 549]], WY: [[820, 831]],
};
