/** Contracts of the forms routes: requests and answers. */
export {};
