export { DEMO, DemoIds } from './demo-identifiers';
export { OPERATION_EXAMPLES, withDemoExamples } from './demo-examples';
export { DemoRepository } from './demo.repository';
