/**
 * Query keys more than one feature touches. The signed-in user carries the businesses and their locations,
 * so changing a business or a location must refresh it too.
 */
export const sharedQueryKeys = {
  me: ['me'] as const,
};
