import { pageGroup } from '../pages.ts';

export default pageGroup(true).route;
