/** The domain event this plugin publishes itself. */
export const CHAT_TEST_REQUESTED = 'chat.test_requested';
