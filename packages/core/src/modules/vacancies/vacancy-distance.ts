import { sql } from 'kysely';
import { z } from 'zod';
import type { TDb } from '../../db/kysely.ts';

/**
 * `near=LAT,LNG` with `radius_km`: vacancies whose location has coordinates within that great-circle distance
 * (haversine on a sphere of EARTH_RADIUS_KM). A tenant has far fewer locations than vacancies, so the locations in
 * range are found first (a latitude/longitude bounding box on the locations index narrows them, haversine decides),
 * with their distances; the vacancy queries then filter and sort by those location ids like any id filter.
 */

/** The mean earth radius (IUGG), in kilometres. */
export const EARTH_RADIUS_KM = 6371.0088;
export const DEFAULT_RADIUS_KM = 25;

export type TNear = { latitude: number; longitude: number };

/** A latitude (−90…90) and a longitude (−180…180) in decimal degrees, as the pattern the OpenAPI document states. */
const LATITUDE = String.raw`[+-]?(?:90(?:\.0{1,15})?|[1-8]?\d(?:\.\d{1,15})?|\.\d{1,15})`;
const LONGITUDE = String.raw`[+-]?(?:180(?:\.0{1,15})?|(?:1[0-7]\d|[1-9]?\d)(?:\.\d{1,15})?|\.\d{1,15})`;
// Empty (or spaces) is allowed: an empty query parameter is an absent one, as everywhere.
const NEAR = new RegExp(`^(?: *(${LATITUDE}) *, *(${LONGITUDE}))? *$`);
const NEAR_MESSAGE =
  'The :attribute must be a latitude (-90 to 90) and a longitude (-180 to 180) separated by a comma.';

/** `52.37,4.89`: a latitude (−90…90) and a longitude (−180…180); empty is absent; anything else is 422 on `near`. */
export const zNear = z
  .string({ error: 'The :attribute must be a latitude and a longitude separated by a comma.' })
  .regex(NEAR, { message: NEAR_MESSAGE })
  .transform((value): TNear | undefined => {
    const match = NEAR.exec(value);
    return match?.[1] === undefined ? undefined : { latitude: Number(match[1]), longitude: Number(match[2]) };
  });

/** The great-circle distance in kilometres (haversine). */
export function haversineKm(a: TNear, b: TNear): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The tenant's locations within `radiusKm` of `near`, with their distances (km, unrounded), nearest first. */
export async function findLocationsNear(
  db: TDb,
  near: TNear,
  radiusKm: number,
): Promise<{ ids: number[]; km: number[] }> {
  // The box: latitude ± the radius's angle; longitude ± that angle widened by the latitude (all longitudes near a pole).
  const angle = (radiusKm / EARTH_RADIUS_KM) * (180 / Math.PI);
  const minLat = near.latitude - angle;
  const maxLat = near.latitude + angle;
  const cosLat = Math.min(Math.cos(minLat * (Math.PI / 180)), Math.cos(maxLat * (Math.PI / 180)));
  const lngAngle = maxLat >= 90 || minLat <= -90 || cosLat <= 0 ? 180 : Math.min(180, angle / cosLat);
  const lat = sql.ref('l.latitude');
  const lng = sql.ref('l.longitude');
  const distance = sql<number>`2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1, sqrt(
    power(sin(radians(${lat} - ${near.latitude}::float8) / 2), 2) +
    cos(radians(${near.latitude}::float8)) * cos(radians(${lat})) * power(sin(radians(${lng} - ${near.longitude}::float8) / 2), 2))))`;
  let query = db
    .selectFrom('locations as l')
    .select(['l.id', distance.as('km')])
    .where('l.latitude', 'is not', null)
    .where('l.latitude', '>=', minLat)
    .where('l.latitude', '<=', maxLat);
  if (lngAngle < 180) {
    const west = near.longitude - lngAngle;
    const east = near.longitude + lngAngle;
    // A box across the antimeridian is two ranges.
    query =
      west < -180
        ? query.where((eb) => eb.or([eb('l.longitude', '>=', west + 360), eb('l.longitude', '<=', east)]))
        : east > 180
          ? query.where((eb) => eb.or([eb('l.longitude', '>=', west), eb('l.longitude', '<=', east - 360)]))
          : query.where('l.longitude', '>=', west).where('l.longitude', '<=', east);
  }
  const rows = await db
    .selectFrom(query.as('n'))
    .selectAll()
    .where('n.km', '<=', radiusKm)
    .orderBy('n.km')
    .orderBy('n.id')
    .execute();
  return { ids: rows.map((row) => row.id), km: rows.map((row) => Number(row.km)) };
}

/** A distance as answers show it: kilometres with one decimal. */
export const roundKm = (km: number): number => Math.round(km * 10) / 10;
