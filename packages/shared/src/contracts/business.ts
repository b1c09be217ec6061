/** Contracts of the business routes: requests and answers. */
export {};
