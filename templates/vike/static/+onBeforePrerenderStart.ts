import { pageGroup } from '../pages.ts';

export default pageGroup(false).prerender;
