/** Contracts of the auth routes: requests and answers. */
export {};
